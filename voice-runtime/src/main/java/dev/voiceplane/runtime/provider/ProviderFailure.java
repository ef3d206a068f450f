package dev.voiceplane.runtime.provider;

/** A provider this runtime cannot use for a call: not spoken here, or the organisation has no key for it. */
public final class ProviderFailure extends RuntimeException {

    public ProviderFailure(String message) {
        super(message, null, false, false);
    }
}
