package dev.voiceplane.kit.client;

import dev.voiceplane.kit.error.ApiException;
import io.smallrye.faulttolerance.api.Guard;
import jakarta.ws.rs.ProcessingException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Another service of the platform, called over its {@code /internal/} routes through a REST client, with one
 * fault-tolerance policy: a timeout per attempt, bounded retries on connection failures and 5xx only, and a
 * circuit breaker named after the service that only transient failures open. A 404 is an answer ({@link #find}),
 * another 4xx a {@link PeerFailure.Rejected} for the caller to judge; whatever else goes wrong ends as one 503 in
 * the error shape: "{@code <name> is unavailable, <consequence>; nothing was written, try again later}".
 * A 4xx is never an outage: what the client sent is checked before a peer is asked (a malformed id is the client's
 * 400), so a peer refusing what this service asked is this service's fault, a 500 ({@link #refused}).
 * Obtain one from {@link PeerServices}.
 */
public final class PeerService {

    private static final Logger LOG = Logger.getLogger(PeerService.class);

    private final String name;
    private final Guard guard;

    PeerService(String name, Policy policy) {
        this.name = name;
        this.guard = Guard.create()
                .withTimeout().duration(policy.timeout().toMillis(), ChronoUnit.MILLIS).done()
                .withRetry()
                .maxRetries(policy.retries())
                .delay(policy.retryDelay().toMillis(), ChronoUnit.MILLIS)
                .jitter(policy.retryDelay().toMillis() / 2, ChronoUnit.MILLIS)
                .retryOn(List.of(ProcessingException.class, PeerFailure.Transient.class))
                .done()
                .withCircuitBreaker()
                .name(name)
                .requestVolumeThreshold(policy.breakerVolume())
                .failureRatio(0.5)
                .delay(policy.breakerDelay().toMillis(), ChronoUnit.MILLIS)
                .successThreshold(2)
                .skipOn(List.of(PeerFailure.NotFound.class, PeerFailure.Rejected.class))
                .done()
                .build();
    }

    /** The fault-tolerance settings of one peer; {@link PeerServices} reads them from configuration. */
    public record Policy(Duration timeout, int retries, Duration retryDelay, int breakerVolume, Duration breakerDelay) {

        public static final Policy DEFAULT =
                new Policy(Duration.ofSeconds(2), 2, Duration.ofMillis(50), 10, Duration.ofSeconds(5));
    }

    public String name() {
        return name;
    }

    /**
     * Calls the peer. {@code consequence} completes the 503 message ("so the knowledge base files cannot be
     * checked"). A 404 comes back as {@link PeerFailure.NotFound}, another 4xx as {@link PeerFailure.Rejected}.
     */
    public <T> T call(Supplier<T> request, String consequence) {
        try {
            return guard.get(request, anyType());
        } catch (PeerFailure.NotFound | PeerFailure.Rejected answer) {
            throw answer;
        } catch (ApiException passThrough) {
            throw passThrough;
        } catch (RuntimeException failure) {
            LOG.warnf("%s call failed: %s", name, String.valueOf(failure));
            throw unavailable(consequence);
        }
    }

    /** Calls the peer for one resource: empty when the peer answers 404. */
    public <T> Optional<T> find(Supplier<T> request, String consequence) {
        try {
            return Optional.ofNullable(call(request, consequence));
        } catch (PeerFailure.NotFound notFound) {
            return Optional.empty();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> Class<T> anyType() {
        return (Class<T>) Object.class; // a synchronous result: the guard only needs to know it is not async
    }

    /**
     * A peer's 4xx (other than 404) to a request this service built from input it had already checked: a fault here
     * (a missing check, a token or version mismatch between services), so a 500 that names the peer and its status
     * in the log, never a 503 that would tell the client to retry what cannot succeed.
     */
    public IllegalStateException refused(PeerFailure.Rejected rejected, String consequence) {
        return new IllegalStateException(name + " refused the request with " + rejected.status()
                + (consequence.isEmpty() ? "" : ", " + consequence), rejected);
    }

    /** The 503 this peer's failures end in. */
    public ApiException unavailable(String consequence) {
        return ApiException.unavailable(name + " is unavailable" + (consequence.isEmpty() ? "" : ", " + consequence)
                + "; nothing was written, try again later");
    }
}
