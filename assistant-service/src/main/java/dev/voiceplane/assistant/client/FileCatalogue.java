package dev.voiceplane.assistant.client;

import dev.voiceplane.kit.error.ApiException;
import io.smallrye.faulttolerance.api.CircuitBreakerName;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
 * Which files exist in an organisation, as file-service knows them. Each attempt is bounded by a timeout;
 * connection failures and 5xx answers are retried twice, a 4xx never; a circuit breaker stops asking a
 * file-service that keeps failing. Whatever fails ends as a 503 in the error shape, before anything is written.
 * The policy can be tuned without a rebuild:
 * {@code quarkus.fault-tolerance."<this class>/existing".retry.max-retries=...}.
 */
@ApplicationScoped
public class FileCatalogue {

    /** Ids per lookup request; file-service must accept at least this many. */
    public static final int BATCH = 1000;
    public static final String CIRCUIT = "file-service";

    private final FileServiceApi files;
    private final String authorization;

    public FileCatalogue(@RestClient FileServiceApi files,
            @ConfigProperty(name = "voice.internal-token") Optional<String> internalToken) {
        this.files = files;
        this.authorization = "Bearer " + internalToken.orElse("");
    }

    /** The ids among {@code ids} that are files of the organisation. */
    @Timeout(value = 2, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 50, jitter = 25,
            retryOn = {ProcessingException.class, FileServiceFailure.Transient.class})
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = ChronoUnit.SECONDS,
            successThreshold = 2)
    @CircuitBreakerName(CIRCUIT)
    @Fallback(Unavailable.class)
    public Set<String> existing(String orgId, List<String> ids) {
        Set<String> found = new HashSet<>();
        for (int start = 0; start < ids.size(); start += BATCH) {
            List<String> batch = new ArrayList<>(ids.subList(start, Math.min(ids.size(), start + BATCH)));
            FileLookupResult answer = files.lookup(authorization, orgId, new FileLookup(batch));
            if (answer != null && answer.found() != null) {
                found.addAll(answer.found());
            }
        }
        found.retainAll(Set.copyOf(ids));
        return found;
    }

    /** Whatever made the lookup fail (after the retries, or with the circuit open), the client gets a 503. */
    public static class Unavailable implements FallbackHandler<Set<String>> {

        private static final Logger LOG = Logger.getLogger(FileCatalogue.class);

        @Override
        public Set<String> handle(ExecutionContext context) {
            LOG.warnf("file-service lookup failed: %s", String.valueOf(context.getFailure()));
            throw ApiException.unavailable("file-service is unavailable, so the knowledge base files cannot be checked;"
                    + " nothing was written, try again later");
        }
    }
}
