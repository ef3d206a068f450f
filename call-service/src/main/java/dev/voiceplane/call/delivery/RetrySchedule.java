package dev.voiceplane.call.delivery;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When the next attempt of a message is due: the configured schedule (by default Standard Webhooks': immediately,
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, about a day in all), each delay spread by the jitter, and at least the
 * receiver's {@code Retry-After} within {@code maxRetryAfter}.
 */
public final class RetrySchedule {

    private final List<Duration> delays;
    private final double jitter;
    private final Duration maxRetryAfter;

    public RetrySchedule(List<Duration> delays, double jitter, Duration maxRetryAfter) {
        if (delays.isEmpty()) {
            throw new IllegalArgumentException("voice.webhook.schedule needs at least one attempt");
        }
        if (jitter < 0 || jitter >= 1) {
            throw new IllegalArgumentException("voice.webhook.jitter must be in [0, 1)");
        }
        this.delays = List.copyOf(delays);
        this.jitter = jitter;
        this.maxRetryAfter = maxRetryAfter;
    }

    public static RetrySchedule of(DeliveryConfig config) {
        return new RetrySchedule(config.schedule(), config.jitter(), config.maxRetryAfter());
    }

    public int attempts() {
        return delays.size();
    }

    /**
     * The delay before attempt {@code made + 1} after {@code made} failed attempts of this schedule, or empty when
     * they were all made (the message is dead).
     */
    public Optional<Duration> nextDelay(int made, Optional<Duration> retryAfter) {
        if (made >= delays.size()) {
            return Optional.empty();
        }
        Duration delay = spread(delays.get(made));
        if (retryAfter.isPresent()) {
            Duration asked = retryAfter.get().compareTo(maxRetryAfter) > 0 ? maxRetryAfter : retryAfter.get();
            if (asked.compareTo(delay) > 0) {
                delay = asked;
            }
        }
        return Optional.of(delay);
    }

    private Duration spread(Duration delay) {
        if (jitter == 0 || delay.isZero()) {
            return delay;
        }
        double factor = 1 + ThreadLocalRandom.current().nextDouble(-jitter, jitter);
        return Duration.ofMillis(Math.round(delay.toMillis() * factor));
    }

    /** {@code Retry-After} as seconds or an HTTP date (RFC 9110 §10.2.3); empty when absent or unreadable. */
    public static Optional<Duration> retryAfter(String header, Instant now) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        String value = header.trim();
        try {
            long seconds = Long.parseLong(value);
            return seconds < 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(Math.min(seconds, 365L * 86400)));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                Duration wait = Duration.between(now, at);
                return wait.isNegative() ? Optional.of(Duration.ZERO) : Optional.of(wait);
            } catch (DateTimeParseException notDate) {
                return Optional.empty();
            }
        }
    }
}
