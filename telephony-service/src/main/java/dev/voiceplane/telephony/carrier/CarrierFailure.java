package dev.voiceplane.telephony.carrier;

/**
 * A carrier did not do what was asked. {@link #rejected} carries the carrier's own reason (bad credentials, a
 * number the account does not own, a refused call): the client can act on it. Otherwise the carrier could not be
 * reached or failed on its side, and asking again later may work.
 */
public class CarrierFailure extends RuntimeException {

    private final boolean rejected;
    private final int carrierStatus;

    private CarrierFailure(String message, boolean rejected, int carrierStatus) {
        super(message, null, false, false);
        this.rejected = rejected;
        this.carrierStatus = carrierStatus;
    }

    public static CarrierFailure rejected(String message, int carrierStatus) {
        return new CarrierFailure(message, true, carrierStatus);
    }

    public static CarrierFailure unavailable(String message) {
        return new CarrierFailure(message, false, 0);
    }

    public boolean rejected() {
        return rejected;
    }

    /** The carrier's HTTP status, 0 when it did not answer. */
    public int carrierStatus() {
        return carrierStatus;
    }
}
