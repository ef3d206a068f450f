package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallView;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.WireValue;
import dev.voiceplane.call.repository.Outbox;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Server messages (docs/api-reference.md, "Server messages"): {@code {"message": {"type", "call", "phoneNumber",
 * "customer", "timestamp", ...type-specific fields}}}, written to the outbox in the caller's transaction, and only the
 * kinds the call's assistant asked for ({@code serverMessages}, default end-of-call-report, status-update, hang,
 * tool-calls). Each call's messages are numbered in order ({@code seq}, allocated by the database in
 * {@link Outbox#add}), so the delivery worker keeps that order.
 */
@ApplicationScoped
public class ServerMessages {

    public static final String STATUS_UPDATE = "status-update";
    public static final String END_OF_CALL_REPORT = "end-of-call-report";
    public static final String HANG = "hang";

    private final ObjectMapper json;
    private final Outbox outbox;
    private final Details details;
    private final CallViews views;

    public ServerMessages(ObjectMapper json, Outbox outbox, Details details, CallViews views) {
        this.json = json;
        this.outbox = outbox;
        this.details = details;
        this.views = views;
    }

    /** {@code status-update}: the call's status, and {@code endedReason} once ended. */
    public void statusUpdate(Call call) {
        write(call, STATUS_UPDATE, (message, view) -> {
            message.put("status", call.status.wire());
            if (call.endedReason != null) {
                message.put("endedReason", call.endedReason.wire());
            }
        });
    }

    /** {@code hang}: the assistant did not answer in time (reported by the runtime); no extra fields. */
    public void hang(Call call) {
        write(call, HANG, (message, view) -> {
        });
    }

    /** {@code end-of-call-report}: what the call produced. */
    public void endOfCallReport(Call call) {
        write(call, END_OF_CALL_REPORT, (message, view) -> {
            message.put("endedReason", WireValue.text(call.endedReason));
            message.put("transcript", view.transcript() == null ? "" : view.transcript());
            JsonNode analysis = view.analysis();
            message.put("summary", analysis == null ? null : analysis.path("summary").asText(null));
            message.set("messages", json.valueToTree(view.messages()));
            message.set("analysis", analysis == null ? json.createObjectNode() : analysis);
            message.put("recordingUrl", view.recordingUrl());
            message.put("stereoRecordingUrl", view.stereoRecordingUrl());
        });
    }

    /**
     * A live message the runtime reported (LiveServerMessages): its kind and fields as given, written when the
     * assistant lists the kind; whether it was.
     */
    public boolean live(Call call, String type, ObjectNode fields) {
        return write(call, type, (message, view) -> message.setAll(fields));
    }

    private interface Fields {
        void add(ObjectNode message, CallView view);
    }

    private boolean write(Call call, String type, Fields fields) {
        ObjectNode row = details.read(call);
        if (!InternalDetails.of(row.path(Details.INTERNAL)).asks(type)) {
            return false;
        }
        CallView view = views.view(call);
        ObjectNode body = json.createObjectNode();
        ObjectNode message = body.putObject("message");
        message.put("type", type);
        fields.add(message, view);
        message.set("call", json.valueToTree(view));
        JsonNode phoneNumber = details.internal(row).get("phoneNumber");
        if (phoneNumber != null) {
            message.set("phoneNumber", phoneNumber);
        }
        if (row.get("customer") != null) {
            message.set("customer", row.get("customer"));
        }
        message.put("timestamp", OrgScopedEntity.now().toString());
        try {
            outbox.add(call.orgId, call.id, type, json.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a server message cannot be written as JSON", e);
        }
        return true;
    }
}
