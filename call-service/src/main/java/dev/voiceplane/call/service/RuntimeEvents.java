package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.RuntimeEvent;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.CallStatus;
import dev.voiceplane.call.domain.EndedReason;
import dev.voiceplane.call.repository.CallDocuments;
import dev.voiceplane.call.repository.CallEvents;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.contracts.call.UsageKinds;
import dev.voiceplane.contracts.telephony.EventReceipt;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What the voice runtime reports about a call (docs/calls.md "Runtime contract"): each event is recorded once by
 * its sequence number and applied in the same transaction; an event that does not move the call forward is
 * recorded and changes nothing. The runtime's {@code ended} carries usage and recordings and lets the end-of-call
 * report be written.
 */
@ApplicationScoped
public class RuntimeEvents {

    static final String SOURCE = "runtime";
    private final CallRepository calls;
    private final CallEvents events;
    private final CallDocuments documents;
    private final Lifecycle lifecycle;
    private final ServerMessages messages;
    private final Details details;
    private final EndOfCall endOfCall;
    private final CarrierLines lines;
    private final ObjectMapper json;

    private final LiveServerMessages live;

    public RuntimeEvents(CallRepository calls, CallEvents events, CallDocuments documents, Lifecycle lifecycle,
            ServerMessages messages, Details details, EndOfCall endOfCall, CarrierLines lines, ObjectMapper json,
            LiveServerMessages live) {
        this.live = live;
        this.calls = calls;
        this.events = events;
        this.documents = documents;
        this.lifecycle = lifecycle;
        this.messages = messages;
        this.details = details;
        this.endOfCall = endOfCall;
        this.lines = lines;
        this.json = json;
    }

    public EventReceipt report(String orgId, UUID callId, RuntimeEvent event) {
        requireComplete(event);
        String payload;
        try {
            payload = json.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        Call[] hangUp = new Call[1];
        EventReceipt receipt = QuarkusTransaction.requiringNew().call(() -> {
            Call call = calls.requireOwnedForChange(orgId, callId, "Call");
            String key = Long.toString(event.sequence());
            if (!events.record(orgId, callId, SOURCE, key, event.type(), payload)) {
                return new EventReceipt(false, false, call.status.wire());
            }
            boolean wasLive = !call.ended();
            boolean applied = apply(call, event);
            if (applied) {
                events.markApplied(orgId, callId, SOURCE, key);
            }
            if (applied && wasLive && call.ended() && "ended".equals(event.type())
                    && !EndedReason.CARRIER_GONE.contains(reason(event))) {
                hangUp[0] = call;
            }
            return new EventReceipt(true, applied, call.status.wire());
        });
        if (hangUp[0] != null) {
            // The runtime ended the call (the assistant, a timeout, an error): the carrier's call is hung up too.
            Call ended = hangUp[0];
            lines.hangUp(orgId, callId, ended.phoneNumberId, ended.sealingContext(), ended.phoneCallProviderId);
        }
        if ("ended".equals(event.type()) && receipt.recorded()) {
            endOfCall.finaliseIfReady(orgId, callId, false);
        }
        return receipt;
    }

    private boolean apply(Call call, RuntimeEvent event) {
        var now = OrgScopedEntity.now();
        switch (event.type()) {
            case "in-progress":
                return lifecycle.move(call, CallStatus.IN_PROGRESS, now);
            case "message":
                documents.putMessage(call.orgId, call.id, event.sequence(), event.message().toString());
                call.touch();
                return true;
            case "forwarding": {
                boolean moved = lifecycle.move(call, CallStatus.FORWARDING, now);
                if (moved && event.forwardedPhoneNumber() != null) {
                    ObjectNode row = details.read(call);
                    row.put("forwardedPhoneNumber", event.forwardedPhoneNumber());
                    details.write(call, row);
                }
                return moved;
            }
            case LiveServerMessages.EVENT:
                return live.write(call, event.serverMessage());
            case "hang":
                if (call.ended()) {
                    return false;
                }
                messages.hang(call);
                return true;
            case "ended": {
                if (call.runtimeEnded) {
                    return false;
                }
                ObjectNode row = details.read(call);
                if (event.usage() != null) {
                    details.internal(row).set(Details.USAGE, json.valueToTree(event.usage()));
                }
                if (event.recordingUrl() != null) {
                    row.put("recordingUrl", event.recordingUrl());
                }
                if (event.stereoRecordingUrl() != null) {
                    row.put("stereoRecordingUrl", event.stereoRecordingUrl());
                }
                details.write(call, row);
                call.runtimeEnded = true;
                call.touch();
                lifecycle.end(call, reason(event), now);
                return true;
            }
            default:
                return false;
        }
    }

    /** The reason of an {@code ended} event, checked by {@link #requireComplete} before anything is applied. */
    private static EndedReason reason(RuntimeEvent event) {
        return EndedReason.fromRuntime(event.endedReason()).orElseThrow();
    }

    /** Who can speak in a transcript (docs/calls.md, "Runtime contract"); another role would be stored unread. */
    static final List<String> MESSAGE_ROLES = List.of("bot", "assistant", "user", "system", "tool");

    /** A usage line's unit must be its kind's (seconds of transcription, tokens of a model, characters of a voice). */
    private static List<String> unitProblems(RuntimeEvent.Usage usage) {
        List<String> problems = new ArrayList<>();
        if (usage == null || usage.lines() == null) {
            return problems;
        }
        for (int i = 0; i < usage.lines().size(); i++) {
            RuntimeEvent.UsageLine line = usage.lines().get(i);
            int index = i;
            UsageKinds.of(line.kind()).filter(kind -> !kind.unit().equals(line.unit())).ifPresent(kind -> problems.add(
                    "usage.lines." + index + ".unit must be " + kind.unit() + " for the kind " + line.kind()));
        }
        return problems;
    }

    private static void requireComplete(RuntimeEvent event) {
        List<String> problems = new ArrayList<>();
        switch (event.type()) {
            case "message" -> {
                if (event.message() == null || !event.message().path("role").isTextual()
                        || !event.message().path("message").isTextual()) {
                    problems.add("message must be an object with role and message strings");
                } else if (!MESSAGE_ROLES.contains(event.message().path("role").asText())) {
                    problems.add("message.role must be one of the following values: "
                            + String.join(", ", MESSAGE_ROLES));
                }
            }
            case "ended" -> {
                if (EndedReason.fromRuntime(event.endedReason()).isEmpty()) {
                    problems.add("endedReason must be one of the following values: "
                            + String.join(", ", EndedReason.fromRuntimeWires()));
                }
                problems.addAll(unitProblems(event.usage()));
            }
            case LiveServerMessages.EVENT -> problems.addAll(LiveServerMessages.problems(event.serverMessage()));
            default -> {
            }
        }
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
    }
}
