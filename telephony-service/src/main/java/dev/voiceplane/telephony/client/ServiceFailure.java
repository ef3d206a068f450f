package dev.voiceplane.telephony.client;

/**
 * Another voiceplane service answered with an error status. A 5xx is transient (worth another attempt); a 404 is
 * an answer ("no such thing"); any other 4xx means this service asked wrongly and asking again would not help.
 * Written to move into the kit's internal client helper once it lands (KIT.md).
 */
public class ServiceFailure extends RuntimeException {

    private final int status;

    public ServiceFailure(int status) {
        super("answered " + status, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }

    public static ServiceFailure of(int status) {
        if (status == 404) {
            return new NotFound();
        }
        return status >= 500 ? new Transient(status) : new Rejected(status);
    }

    public static final class Transient extends ServiceFailure {
        public Transient(int status) {
            super(status);
        }
    }

    public static final class Rejected extends ServiceFailure {
        public Rejected(int status) {
            super(status);
        }
    }

    public static final class NotFound extends ServiceFailure {
        public NotFound() {
            super(404);
        }
    }
}
