package dev.voiceplane.kit.ops;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Latency histogram buckets for the HTTP server metric ({@code http_server_requests_seconds_bucket}), so that
 * Prometheus can compute per-route percentiles and the latency alerts of docs/operations.md. A few fixed
 * buckets instead of Micrometer's ~70 percentile-histogram buckets keep the series per route small.
 */
@Singleton
public class RequestLatencyBuckets {

    static final String HTTP_SERVER_REQUESTS = "http.server.requests";
    static final double[] BUCKETS = Stream.of(25, 50, 100, 250, 500, 1000, 2500, 5000)
            .mapToDouble(millis -> Duration.ofMillis(millis).toNanos()).toArray();

    @Produces
    @Singleton
    MeterFilter httpServerLatencyBuckets() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!id.getName().equals(HTTP_SERVER_REQUESTS)) {
                    return config;
                }
                return DistributionStatisticConfig.builder().serviceLevelObjectives(BUCKETS).build().merge(config);
            }
        };
    }
}
