package dev.voiceplane.telephony.client;

import dev.voiceplane.kit.error.ApiException;
import io.smallrye.faulttolerance.api.CircuitBreakerName;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import java.time.temporal.ChronoUnit;
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
 * Vonage credentials as credential-service holds them: a 404 is an answer (empty), failures end as a 503.
 * Same policy as {@link AssistantDirectory}.
 */
@ApplicationScoped
public class CredentialDirectory {

    public static final String CIRCUIT = "credential-service";

    private final CredentialServiceApi credentials;
    private final String authorization;

    public CredentialDirectory(@RestClient CredentialServiceApi credentials,
            @ConfigProperty(name = "voice.internal-token") Optional<String> internalToken) {
        this.credentials = credentials;
        this.authorization = "Bearer " + internalToken.orElse("");
    }

    /** The credential's secret when it exists in the organisation; empty when credential-service has no such id. */
    @Timeout(value = 2, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 50, jitter = 25,
            retryOn = {ProcessingException.class, ServiceFailure.Transient.class})
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS,
            successThreshold = 2, skipOn = ServiceFailure.NotFound.class)
    @CircuitBreakerName(CIRCUIT)
    @Fallback(value = Unavailable.class, skipOn = ServiceFailure.NotFound.class)
    public Optional<CredentialSecret> secret(String orgId, String credentialId) {
        try {
            return Optional.ofNullable(credentials.secret(authorization, orgId, credentialId));
        } catch (ServiceFailure.NotFound unknown) {
            return Optional.empty();
        }
    }

    public static class Unavailable implements FallbackHandler<Optional<CredentialSecret>> {

        private static final Logger LOG = Logger.getLogger(CredentialDirectory.class);

        @Override
        public Optional<CredentialSecret> handle(ExecutionContext context) {
            LOG.warnf("credential-service read failed: %s", String.valueOf(context.getFailure()));
            throw ApiException.unavailable("credential-service is unavailable, so credentialId cannot be checked;"
                    + " nothing was written, try again later");
        }
    }
}
