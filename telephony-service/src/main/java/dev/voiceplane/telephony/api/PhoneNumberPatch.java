package dev.voiceplane.telephony.api;

import dev.voiceplane.kit.validation.HttpUrl;
import jakarta.validation.constraints.Size;

/**
 * The fields {@code PATCH /phone-number/{id}} may change. Which of them the request named is read from the JSON
 * itself: a field present replaces, {@code null} clears, an absent field stays. {@code provider} is accepted as
 * today's SDKs send it (the discriminator of their update bodies) and must name the number's carrier.
 */
public record PhoneNumberPatch(
        String provider,
        @Size(max = 40) String name,
        @Size(max = 100) String assistantId,
        @HttpUrl String serverUrl,
        @Size(max = 1000) String serverUrlSecret,
        @jakarta.validation.Valid dev.voiceplane.contracts.assistant.ToolServer server) {

    @Override
    public String toString() {
        return "PhoneNumberPatch[name=" + name + ", assistantId=" + assistantId + ", serverUrl=" + serverUrl + "]";
    }
}
