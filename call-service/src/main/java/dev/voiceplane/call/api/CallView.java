package dev.voiceplane.call.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** A call as the API returns it (docs/calls.md, "Call object"); unset fields are omitted. */
@RegisterForReflection
public record CallView(
        String id,
        String orgId,
        Instant createdAt,
        Instant updatedAt,
        String type,
        String status,
        String endedReason,
        Instant startedAt,
        Instant endedAt,
        BigDecimal cost,
        JsonNode costBreakdown,
        /** What each transport, transcriber, model, voice, the platform and each analysis request cost (CallCost). */
        List<JsonNode> costs,
        String transcript,
        String recordingUrl,
        String stereoRecordingUrl,
        JsonNode analysis,
        List<JsonNode> messages,
        String phoneCallProvider,
        String phoneCallProviderId,
        String phoneCallTransport,
        JsonNode phoneCallProviderDetails,
        String webCallUrl,
        String forwardedPhoneNumber,
        String assistantId,
        JsonNode assistant,
        JsonNode assistantOverrides,
        String squadId,
        JsonNode squad,
        String customerId,
        JsonNode customer,
        String phoneNumberId,
        /** The inline number the call was created with (its import body without secrets); absent otherwise. */
        JsonNode phoneNumber,
        String name,
        JsonNode metadata) {
}
