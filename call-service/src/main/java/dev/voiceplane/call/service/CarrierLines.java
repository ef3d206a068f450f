package dev.voiceplane.call.service;

import dev.voiceplane.call.client.Telephony;
import dev.voiceplane.call.repository.CallDocuments;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;

/**
 * The number a phone call was placed from, as telephony-service addresses it: the imported number's id, or, for a
 * call created with an inline {@code phoneNumber}, its frozen import body (secrets opened from the call's documents).
 */
@ApplicationScoped
public class CarrierLines {

    private final CallDocuments documents;
    private final Configurations configurations;
    private final Telephony telephony;

    public CarrierLines(CallDocuments documents, Configurations configurations, Telephony telephony) {
        this.documents = documents;
        this.configurations = configurations;
        this.telephony = telephony;
    }

    /** The line of a call from its configuration (already opened); empty for a call without a number. */
    public static Optional<Telephony.Line> of(String phoneNumberId, FrozenConfiguration configuration) {
        if (phoneNumberId != null) {
            return Optional.of(Telephony.Line.imported(phoneNumberId));
        }
        return configuration.inlinePhoneNumber().map(Telephony.Line::inline);
    }

    /** The line of a stored call; reads its documents only for an inline number. */
    public Optional<Telephony.Line> of(String orgId, UUID callId, String phoneNumberId, String sealingContext) {
        if (phoneNumberId != null) {
            return Optional.of(Telephony.Line.imported(phoneNumberId));
        }
        CallDocuments.Stored stored = documents.read(orgId, callId);
        return stored == null ? Optional.empty()
                : of(null, configurations.frozen(configurations.read(stored.configuration(), sealingContext)));
    }

    /** Hangs up a call's carrier call, wherever it was placed from (best effort, see {@link Telephony#hangUp}). */
    public void hangUp(String orgId, UUID callId, String phoneNumberId, String sealingContext, String carrierCallId) {
        if (carrierCallId == null) {
            return;
        }
        of(orgId, callId, phoneNumberId, sealingContext).ifPresent(line -> telephony.hangUp(orgId, line, carrierCallId));
    }
}
