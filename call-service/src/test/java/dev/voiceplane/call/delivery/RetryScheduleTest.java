package dev.voiceplane.call.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {

    static final List<Duration> STANDARD = List.of(Duration.ZERO, Duration.ofSeconds(5), Duration.ofMinutes(5),
            Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(5), Duration.ofHours(10), Duration.ofHours(10));

    @Test
    void theStandardScheduleWithoutJitterThenDead() {
        RetrySchedule schedule = new RetrySchedule(STANDARD, 0, Duration.ofHours(1));
        assertEquals(8, schedule.attempts());
        for (int made = 1; made < 8; made++) {
            assertEquals(Optional.of(STANDARD.get(made)), schedule.nextDelay(made, Optional.empty()));
        }
        assertEquals(Optional.empty(), schedule.nextDelay(8, Optional.empty()));
    }

    @Test
    void jitterStaysWithinItsFraction() {
        RetrySchedule schedule = new RetrySchedule(STANDARD, 0.1, Duration.ofHours(1));
        for (int i = 0; i < 1000; i++) {
            long millis = schedule.nextDelay(2, Optional.empty()).orElseThrow().toMillis();
            assertTrue(millis >= 270_000 && millis <= 330_000, Long.toString(millis));
        }
    }

    @Test
    void retryAfterIsHonouredWithinItsBound() {
        RetrySchedule schedule = new RetrySchedule(STANDARD, 0, Duration.ofHours(1));
        assertEquals(Optional.of(Duration.ofSeconds(120)), schedule.nextDelay(1, Optional.of(Duration.ofSeconds(120))));
        // Shorter than the schedule: the schedule wins; longer than the bound: the bound.
        assertEquals(Optional.of(Duration.ofSeconds(5)), schedule.nextDelay(1, Optional.of(Duration.ofSeconds(1))));
        assertEquals(Optional.of(Duration.ofHours(1)), schedule.nextDelay(1, Optional.of(Duration.ofDays(3))));
    }

    @Test
    void retryAfterIsReadAsSecondsOrAnHttpDate() {
        Instant now = Instant.parse("2026-11-23T12:00:00Z");
        assertEquals(Optional.of(Duration.ofSeconds(30)), RetrySchedule.retryAfter("30", now));
        assertEquals(Optional.of(Duration.ofSeconds(90)), RetrySchedule.retryAfter("Mon, 23 Nov 2026 12:01:30 GMT", now));
        assertEquals(Optional.empty(), RetrySchedule.retryAfter("soon", now));
        assertEquals(Optional.empty(), RetrySchedule.retryAfter("-5", now));
        assertEquals(Optional.empty(), RetrySchedule.retryAfter(null, now));
    }
}
