package dev.voiceplane.kit.client;

import java.util.Optional;
import java.util.function.Function;

/**
 * A peer's REST client (a contract interface of the {@code contracts} module) bound to its {@link PeerService}, so
 * that a caller writes {@code peer.find(api -> api.get(orgId, id), consequence)} and gets the one policy: timeout,
 * retries on transient failures, the circuit breaker, a 404 as an empty answer, a 503 for an outage.
 * Obtain one from {@link PeerServices#client}.
 */
public final class Peer<A> {

    private final A api;
    private final PeerService service;

    Peer(A api, PeerService service) {
        this.api = api;
        this.service = service;
    }

    public PeerService service() {
        return service;
    }

    /** Calls the peer: see {@link PeerService#call}. */
    public <T> T call(Function<A, T> request, String consequence) {
        return service.call(() -> request.apply(api), consequence);
    }

    /** Calls the peer for one resource, empty when it answers 404; another 4xx stays a {@link PeerFailure.Rejected}. */
    public <T> Optional<T> find(Function<A, T> request, String consequence) {
        return service.find(() -> request.apply(api), consequence);
    }

    /**
     * Reads one resource this service asked for with input it had already checked: empty on a 404, and another 4xx
     * is a fault between the services (token, version), a 500 ({@link PeerService#refused}), never the client's.
     */
    public <T> Optional<T> read(Function<A, T> request, String consequence) {
        try {
            return find(request, consequence);
        } catch (PeerFailure.Rejected refused) {
            throw service.refused(refused, consequence);
        }
    }
}
