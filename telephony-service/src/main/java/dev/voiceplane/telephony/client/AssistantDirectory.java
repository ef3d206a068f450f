package dev.voiceplane.telephony.client;

import dev.voiceplane.kit.error.ApiException;
import io.smallrye.faulttolerance.api.CircuitBreakerName;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.ExecutionContext;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.FallbackHandler;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/**
 * Whether an id names an assistant of an organisation, as assistant-service knows it. Bounded attempts, two
 * retries on transient failures, a circuit breaker; whatever fails ends as a 503 before anything is written.
 */
@ApplicationScoped
public class AssistantDirectory {

    public static final String CIRCUIT = "assistant-service";

    private final AssistantServiceApi assistants;
    private final String authorization;

    public AssistantDirectory(@RestClient AssistantServiceApi assistants,
            @ConfigProperty(name = "voice.internal-token") Optional<String> internalToken) {
        this.assistants = assistants;
        this.authorization = "Bearer " + internalToken.orElse("");
    }

    @Timeout(value = 2, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 50, jitter = 25,
            retryOn = {ProcessingException.class, ServiceFailure.Transient.class})
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS,
            successThreshold = 2)
    @CircuitBreakerName(CIRCUIT)
    @Fallback(Unavailable.class)
    public boolean exists(String orgId, String assistantId) {
        IdLookupResult answer = assistants.lookup(authorization, orgId, new IdLookup(List.of(assistantId)));
        return answer != null && answer.found() != null && answer.found().contains(assistantId);
    }

    public static class Unavailable implements FallbackHandler<Boolean> {

        private static final Logger LOG = Logger.getLogger(AssistantDirectory.class);

        @Override
        public Boolean handle(ExecutionContext context) {
            LOG.warnf("assistant-service lookup failed: %s", String.valueOf(context.getFailure()));
            throw ApiException.unavailable("assistant-service is unavailable, so assistantId cannot be checked;"
                    + " nothing was written, try again later");
        }
    }
}
