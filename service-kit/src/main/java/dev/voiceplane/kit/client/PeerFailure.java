package dev.voiceplane.kit.client;

/**
 * A peer service answered an internal call with an error status. The three kinds are treated differently by
 * {@link PeerService}: a 404 is an answer ("no such thing"), another 4xx is a rejection (asking again would get
 * the same answer), a 5xx is transient (worth another attempt). Only transient failures count against the
 * circuit breaker.
 */
public abstract sealed class PeerFailure extends RuntimeException
        permits PeerFailure.NotFound, PeerFailure.Rejected, PeerFailure.Transient {

    private final int status;

    PeerFailure(int status) {
        super("peer service answered " + status, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** The status as an exception of the right kind. */
    public static PeerFailure of(int status) {
        if (status == 404) {
            return new NotFound();
        }
        return status >= 500 ? new Transient(status) : new Rejected(status);
    }

    /** 404: the peer has no such resource in the organisation. */
    public static final class NotFound extends PeerFailure {
        public NotFound() {
            super(404);
        }
    }

    /** Any other non-success status below 500: the request was refused as asked. */
    public static final class Rejected extends PeerFailure {
        public Rejected(int status) {
            super(status);
        }
    }

    /** A 5xx: worth retrying. */
    public static final class Transient extends PeerFailure {
        public Transient(int status) {
            super(status);
        }
    }
}
