package dev.voiceplane.runtime.ops;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness DOWN from the moment a stop begins: the drain of live calls holds Quarkus' pre-shutdown, so the
 * framework's own graceful-shutdown check may only turn DOWN after it; this one tells the Service at once to send
 * no new calls here.
 */
@Readiness
@ApplicationScoped
public class DrainReadiness implements HealthCheck {

    private final LiveCalls live;

    public DrainReadiness(LiveCalls live) {
        this.live = live;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("voice-runtime accepts media").status(live.accepting())
                .withData("liveCalls", live.size()).build();
    }
}
