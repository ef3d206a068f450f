package dev.voiceplane.call.delivery;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** {@code voice.webhook.*} ({@code VOICE_WEBHOOK_*}): how server messages are delivered (docs/webhooks.md). */
@ConfigMapping(prefix = "voice.webhook")
public interface DeliveryConfig {

    /** Whether this replica runs a delivery worker (every replica does; tests start their own). */
    @WithDefault("true")
    boolean workerEnabled();

    /** The whole attempt (connect, send, answer) must end within this, as the era's {@code Server.timeoutSeconds}. */
    @WithDefault("20s")
    Duration timeout();

    /** The delay before each attempt (the first is normally immediate); its length is the number of attempts. */
    @WithDefault("0s,5s,5m,30m,2h,5h,10h,10h")
    List<Duration> schedule();

    /** Each retry delay is spread by up to this fraction either way, so failed bursts do not come back together. */
    @WithDefault("0.1")
    double jitter();

    /** A receiver's {@code Retry-After} (429, 503) is honoured up to this. */
    @WithDefault("1h")
    Duration maxRetryAfter();

    /** How much of an answer is read (the rest is dropped with the connection). */
    @WithDefault("65536")
    int maxResponseBytes();

    /** Messages in flight at once on one replica. */
    @WithDefault("64")
    int concurrency();

    /** Most messages claimed by one query. */
    @WithDefault("100")
    int batchSize();

    /** How long a worker sleeps when nothing is due. */
    @WithDefault("500ms")
    Duration pollInterval();

    /** A claim expires after this (a killed replica's messages go to another); longer than {@link #timeout()}. */
    @WithDefault("60s")
    Duration lease();

    /**
     * Delivered, skipped and dead messages are deleted with their attempt logs this long after they finished (a dead
     * letter that is redelivered is pending again and kept); {@code 0} keeps them forever.
     */
    @WithDefault("30d")
    Duration retention();

    /** Private, loopback and unique-local targets are allowed (self-hosting; the local stack). */
    @WithDefault("false")
    boolean allowPrivate();

    /** How long a rotated-out signing secret keeps signing when the rotation does not say. */
    @WithDefault("24h")
    Duration secretOverlap();

    /** The longest overlap a rotation may ask for. */
    @WithDefault("168h")
    Duration maxSecretOverlap();
}
