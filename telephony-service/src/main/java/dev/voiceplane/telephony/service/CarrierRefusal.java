package dev.voiceplane.telephony.service;

import dev.voiceplane.kit.error.ApiException;
import java.util.List;

/** 422: the carrier refused what call-service asked for (its reason in the message); nothing is pending. */
public final class CarrierRefusal extends ApiException {

    public CarrierRefusal(String message) {
        super(422, List.of(message), false);
    }
}
