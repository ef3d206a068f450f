package dev.voiceplane.telephony.client;

import io.smallrye.faulttolerance.api.CircuitBreakerName;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * call-service as telephony-service reaches it. Both calls are idempotent on call-service's side (by carrier call
 * id, by event id), so transient failures are retried; the deadline stays well inside the carrier's wait for an
 * answer (about 15 s for Twilio). Failures reach the caller, which answers the carrier itself.
 */
@ApplicationScoped
public class CallRegistry {

    /** One breaker per route: an outage of event intake should not refuse inbound calls, nor the reverse. */
    public static final String INBOUND_CIRCUIT = "call-service-inbound";
    public static final String EVENTS_CIRCUIT = "call-service-events";

    private final CallServiceApi calls;
    private final String authorization;

    public CallRegistry(@RestClient CallServiceApi calls,
            @ConfigProperty(name = "voice.internal-token") Optional<String> internalToken) {
        this.calls = calls;
        this.authorization = "Bearer " + internalToken.orElse("");
    }

    @Timeout(value = 8, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 50, jitter = 25, maxDuration = 10, durationUnit = ChronoUnit.SECONDS,
            retryOn = {ProcessingException.class, ServiceFailure.Transient.class})
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS,
            successThreshold = 2, skipOn = {ServiceFailure.Rejected.class, ServiceFailure.NotFound.class})
    @CircuitBreakerName(INBOUND_CIRCUIT)
    public InboundCallAnswer openInbound(String orgId, InboundCallRequest request) {
        return calls.openInbound(authorization, orgId, request);
    }

    @Timeout(value = 5, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 50, jitter = 25,
            retryOn = {ProcessingException.class, ServiceFailure.Transient.class})
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS,
            successThreshold = 2, skipOn = {ServiceFailure.Rejected.class, ServiceFailure.NotFound.class})
    @CircuitBreakerName(EVENTS_CIRCUIT)
    public CallEventReceipt report(String orgId, CallEvent event) {
        return calls.report(authorization, orgId, event);
    }
}
