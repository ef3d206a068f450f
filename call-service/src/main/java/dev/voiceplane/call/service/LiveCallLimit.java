package dev.voiceplane.call.service;

import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.kit.error.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * How many live calls (not ended) an organisation may have at once: {@code voice.call.max-live-calls} (default 10,
 * the hosted platform's default plan), with per-organisation exceptions in {@code voice.call.org-max-live-calls}
 * ({@code <orgId>:<limit>,...}). Checked inside the creating transaction under a per-organisation lock
 * ({@link CallRepository#lockAndCountLive}), so it holds across replicas.
 */
@ApplicationScoped
public class LiveCallLimit {

    private final int defaultLimit;
    private final Map<String, Integer> perOrganisation = new HashMap<>();
    private final int retryAfterSeconds;
    private final CallRepository calls;

    public LiveCallLimit(@ConfigProperty(name = "voice.call.max-live-calls") int defaultLimit,
            @ConfigProperty(name = "voice.call.org-max-live-calls") Optional<String> perOrganisation,
            @ConfigProperty(name = "voice.call.retry-after-seconds") int retryAfterSeconds, CallRepository calls) {
        this.defaultLimit = defaultLimit;
        this.retryAfterSeconds = retryAfterSeconds;
        this.calls = calls;
        perOrganisation.ifPresent(spec -> {
            for (String entry : spec.split(",")) {
                int colon = entry.lastIndexOf(':');
                if (colon > 0) {
                    this.perOrganisation.put(entry.substring(0, colon).strip(),
                            Integer.parseInt(entry.substring(colon + 1).strip()));
                }
            }
        });
    }

    public int limit(String orgId) {
        return perOrganisation.getOrDefault(orgId, defaultLimit);
    }

    /** Whether one more live call fits; call inside the transaction that inserts it. */
    public boolean admits(String orgId) {
        int limit = limit(orgId);
        return calls.lockAndCountLive(orgId, limit) < limit;
    }

    /** The 429 of a creation over the limit. */
    public TooManyCalls refusal(String orgId) {
        return new TooManyCalls("Over Concurrency Limit: the organisation has " + limit(orgId)
                + " live calls, the most it may have at once; try again when one has ended", retryAfterSeconds);
    }

    /** 429 with {@code Retry-After} (answered by {@code rest.TooManyCallsMapper}). */
    public static final class TooManyCalls extends ApiException {

        private final int retryAfterSeconds;

        TooManyCalls(String message, int retryAfterSeconds) {
            super(429, java.util.List.of(message), false);
            this.retryAfterSeconds = retryAfterSeconds;
        }

        public int retryAfterSeconds() {
            return retryAfterSeconds;
        }
    }
}
