package dev.voiceplane.telephony.rest;

import jakarta.enterprise.context.RequestScoped;

/**
 * The carrier webhook this request's route verifier checked ({@link TwilioRequests}, {@link VonageRequests}), held
 * for the resource method of the same request: the webhook is verified once, and handled with what was verified
 * (the number row, its opened secret, the parsed parameters) instead of being checked again.
 */
@RequestScoped
public class VerifiedWebhooks {

    private Object verified;

    void hold(Object webhook) {
        this.verified = webhook;
    }

    /**
     * The webhook the verifier passed. None means the route was reached without its verifier (a route not declared
     * {@code @VerifiedBy}): that is a fault of this service, and nothing is handled unverified.
     */
    <W> W take(Class<W> type) {
        if (!type.isInstance(verified)) {
            throw new IllegalStateException("no verified " + type.getSimpleName() + " for this request; its route must be"
                    + " declared @VerifiedBy the carrier's verifier");
        }
        return type.cast(verified);
    }
}
