package dev.voiceplane.call.delivery;

import java.time.Duration;
import java.util.List;

/** The test profile's delivery settings with a few changed, for workers a test starts itself. */
record TestDeliveryConfig(DeliveryConfig base, Boolean allowPrivateOverride, Integer concurrencyOverride,
        List<Duration> scheduleOverride) implements DeliveryConfig {

    static TestDeliveryConfig of(DeliveryConfig base) {
        return new TestDeliveryConfig(base, null, null, null);
    }

    TestDeliveryConfig allowingPrivate(boolean allow) {
        return new TestDeliveryConfig(base, allow, concurrencyOverride, scheduleOverride);
    }

    TestDeliveryConfig withConcurrency(int concurrency) {
        return new TestDeliveryConfig(base, allowPrivateOverride, concurrency, scheduleOverride);
    }

    TestDeliveryConfig withSchedule(Duration... delays) {
        return new TestDeliveryConfig(base, allowPrivateOverride, concurrencyOverride, List.of(delays));
    }

    @Override
    public boolean workerEnabled() {
        return true;
    }

    @Override
    public Duration timeout() {
        return base.timeout();
    }

    @Override
    public List<Duration> schedule() {
        return scheduleOverride != null ? scheduleOverride : base.schedule();
    }

    @Override
    public double jitter() {
        return base.jitter();
    }

    @Override
    public Duration maxRetryAfter() {
        return base.maxRetryAfter();
    }

    @Override
    public int maxResponseBytes() {
        return base.maxResponseBytes();
    }

    @Override
    public int concurrency() {
        return concurrencyOverride != null ? concurrencyOverride : base.concurrency();
    }

    @Override
    public int batchSize() {
        return base.batchSize();
    }

    @Override
    public Duration pollInterval() {
        return base.pollInterval();
    }

    @Override
    public Duration lease() {
        return base.lease();
    }

    @Override
    public Duration retention() {
        return base.retention();
    }

    @Override
    public boolean allowPrivate() {
        return allowPrivateOverride != null ? allowPrivateOverride : base.allowPrivate();
    }

    @Override
    public Duration secretOverlap() {
        return base.secretOverlap();
    }

    @Override
    public Duration maxSecretOverlap() {
        return base.maxSecretOverlap();
    }
}
