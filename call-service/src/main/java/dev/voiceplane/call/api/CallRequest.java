package dev.voiceplane.call.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.contracts.assistant.AssistantOverrides;
import dev.voiceplane.contracts.assistant.SquadBody;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;

/**
 * {@code POST /call}, {@code /call/phone}, {@code /call/web} (docs/calls.md, "Public API"). The inline assistant,
 * overrides and squad are the kit's wire types, validated exactly as assistant-service validates them. Which of
 * {@code assistantId | assistant | squadId | squad} is given, and whether a phone call has what it needs, is checked
 * by {@link dev.voiceplane.call.service.CallCreation} (the era's messages).
 */
@RegisterForReflection
public record CallRequest(
        String assistantId,
        @Valid AssistantBody assistant,
        @Valid AssistantOverrides assistantOverrides,
        String squadId,
        @Valid SquadBody squad,
        String phoneNumberId,
        /** An inline phone number (the era's import body), instead of {@code phoneNumberId}. */
        @Valid InlinePhoneNumber phoneNumber,
        String customerId,
        @Valid CustomerBody customer,
        @Size(max = 40) String name,
        ObjectNode metadata) {
}
