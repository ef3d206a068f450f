package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallRequest;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.CallStatus;
import dev.voiceplane.call.domain.CallType;
import dev.voiceplane.call.domain.EndedReason;
import dev.voiceplane.call.repository.CallDocuments;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.contracts.assistant.AssistantBody;
import dev.voiceplane.contracts.assistant.AssistantOverrides;
import dev.voiceplane.contracts.assistant.SquadBody;
import dev.voiceplane.contracts.telephony.InboundCallAnswer;
import dev.voiceplane.contracts.telephony.InboundCallRequest;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.json.StrictReader;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.UUID;

/**
 * Inbound calls opened by telephony-service. The assistant comes from the phone number or, when it has none,
 * from an {@code assistant-request} to its server URL; it is resolved before the transaction. The call is
 * recorded in every case (idempotent on the carrier's call id, so a retried webhook gets the same call and
 * answer): connected, or ended at once with the reason when there is no assistant or the organisation is at its
 * live-call limit, and then telephony-service says the refusal and hangs up.
 */
@ApplicationScoped
public class InboundCalls {

    static final String REFUSAL = "Sorry, this number cannot take your call right now. Goodbye.";
    /** Where the internal details keep what a refused caller is told. */
    static final String REFUSAL_FIELD = "refusal";
    static final String BUSY = "Sorry, all our lines are busy right now. Please call again later. Goodbye.";

    private final CallRepository calls;
    private final CallDocuments documents;
    private final AssistantFreezing freezing;
    private final AssistantRequests assistantRequests;
    private final Configurations configurations;
    private final Details details;
    private final Lifecycle lifecycle;
    private final ServerMessages messages;
    private final LiveCallLimit limit;
    private final StrictReader strict;
    private final EndOfCall endOfCall;
    private final int defaultMaxDuration;
    private final ObjectMapper json;

    public InboundCalls(CallRepository calls, CallDocuments documents, AssistantFreezing freezing,
            AssistantRequests assistantRequests, Configurations configurations, Details details, Lifecycle lifecycle,
            ServerMessages messages, LiveCallLimit limit, StrictReader strict, EndOfCall endOfCall,
            @org.eclipse.microprofile.config.inject.ConfigProperty(name = "voice.call.default-max-duration-seconds")
            int defaultMaxDuration, ObjectMapper json) {
        this.calls = calls;
        this.documents = documents;
        this.freezing = freezing;
        this.assistantRequests = assistantRequests;
        this.configurations = configurations;
        this.details = details;
        this.lifecycle = lifecycle;
        this.messages = messages;
        this.limit = limit;
        this.strict = strict;
        this.endOfCall = endOfCall;
        this.defaultMaxDuration = defaultMaxDuration;
        this.json = json;
    }

    /** What was resolved before the transaction: the configuration, or why there is none (and what to say). */
    private record Resolution(ObjectNode configuration, String assistantId, String squadId, EndedReason endedReason,
            String message) {
    }

    public InboundCallAnswer open(String orgId, InboundCallRequest request) {
        PhoneNumberConfiguration number = request.phoneNumber();
        if (number.orgId() != null && !number.orgId().equals(orgId)) {
            throw ApiException.invalid("phoneNumber.orgId must be the organisation of the request");
        }
        Optional<InboundCallAnswer> earlier = existing(orgId, request);
        if (earlier.isPresent()) {
            return earlier.get();
        }
        UUID id = Ids.newId();
        Resolution resolution = resolve(orgId, id, request);
        InboundCallAnswer answer = QuarkusTransaction.requiringNew().call(() -> {
            calls.lockCarrierCall(orgId, request.phoneCallProvider(), request.phoneCallProviderId());
            Optional<InboundCallAnswer> meanwhile = existing(orgId, request);
            if (meanwhile.isPresent()) {
                return meanwhile.get();
            }
            boolean admitted = limit.admits(orgId);
            ObjectNode configuration = resolution.configuration() == null ? json.createObjectNode()
                    : resolution.configuration();
            configuration.set("phoneNumber", json.valueToTree(number));
            AssistantSettings settings = AssistantSettings.of(configurations.effectiveAssistant(configuration));
            Call call = newCall(orgId, id, request, resolution, settings);
            String refusal = resolution.endedReason() != null ? resolution.message() : admitted ? null : BUSY;
            if (refusal != null) {
                ObjectNode row = details.read(call);
                details.internal(row).put(REFUSAL_FIELD, refusal);
                details.write(call, row);
            }
            calls.persist(call);
            calls.flush();
            documents.insert(orgId, id, configurations.write(configuration, call.sealingContext()));
            messages.statusUpdate(call);
            if (resolution.endedReason() != null) {
                lifecycle.end(call, resolution.endedReason(), OrgScopedEntity.now());
            } else if (!admitted) {
                lifecycle.end(call, EndedReason.UNKNOWN_ERROR, OrgScopedEntity.now());
            }
            return answerFor(call);
        });
        if ("refuse".equals(answer.answer())) {
            endOfCall.finaliseIfReady(orgId, id, false);
        }
        return answer;
    }

    private Call newCall(String orgId, UUID id, InboundCallRequest request, Resolution resolution,
            AssistantSettings settings) {
        Call call = new Call();
        call.stampCreated(orgId, id);
        call.type = CallType.INBOUND;
        call.status = CallStatus.QUEUED;
        call.phoneCallProvider = request.phoneCallProvider();
        call.phoneCallProviderId = request.phoneCallProviderId();
        call.phoneCallTransport = request.phoneCallTransport() == null ? "pstn" : request.phoneCallTransport();
        call.phoneNumberId = request.phoneNumber().id();
        call.assistantId = resolution.assistantId();
        call.squadId = resolution.squadId();
        call.maxDurationSeconds = settings.maxDurationSeconds(defaultMaxDuration);
        ObjectNode row = json.createObjectNode();
        if (request.customer() != null) {
            row.set("customer", json.valueToTree(request.customer()));
        }
        details.keep(row, settings);
        details.internal(row).set("phoneNumber", json.valueToTree(request.phoneNumber().withoutSecret()));
        details.write(call, row);
        return call;
    }

    private Optional<InboundCallAnswer> existing(String orgId, InboundCallRequest request) {
        return calls.findByCarrierCall(orgId, request.phoneCallProvider(), request.phoneCallProviderId())
                .map(this::answerFor);
    }

    private InboundCallAnswer answerFor(Call call) {
        if (!call.ended()) {
            return InboundCallAnswer.connect(call.id.toString());
        }
        return InboundCallAnswer.refuse(call.id.toString(), details.kept(call).refusal().orElse(REFUSAL));
    }

    private Resolution resolve(String orgId, UUID id, InboundCallRequest request) {
        PhoneNumberConfiguration number = request.phoneNumber();
        if (number.assistantId() != null) {
            Resolution fromNumber = frozen(orgId, new CallRequest(number.assistantId(), null, null, null, null, null,
                    null, null, null, null, null), EndedReason.ASSISTANT_NOT_FOUND);
            // An assistant deleted after the number was set up counts as none: the server URL is asked, if any.
            if (fromNumber.endedReason() == null || number.serverUrl() == null || number.serverUrl().isBlank()) {
                return fromNumber;
            }
        }
        if (number.serverUrl() == null || number.serverUrl().isBlank()) {
            return refused(EndedReason.ASSISTANT_NOT_FOUND, REFUSAL);
        }
        ObjectNode message = json.createObjectNode().put("type", "assistant-request");
        ObjectNode call = message.putObject("call").put("id", id.toString()).put("orgId", orgId)
                .put("type", CallType.INBOUND.wire()).put("status", CallStatus.QUEUED.wire())
                .put("phoneCallProvider", request.phoneCallProvider())
                .put("phoneCallProviderId", request.phoneCallProviderId())
                .put("phoneCallTransport", request.phoneCallTransport() == null ? "pstn" : request.phoneCallTransport())
                .put("phoneNumberId", number.id());
        if (request.customer() != null) {
            call.set("customer", json.valueToTree(request.customer()));
            message.set("customer", json.valueToTree(request.customer()));
        }
        message.set("phoneNumber", json.valueToTree(number.withoutSecret()));
        message.put("timestamp", OrgScopedEntity.now().toString());
        Optional<ObjectNode> answer = assistantRequests.ask(number, message);
        if (answer.isEmpty()) {
            return refused(EndedReason.ASSISTANT_REQUEST_FAILED, REFUSAL);
        }
        ObjectNode body = answer.get();
        if (body.path("error").isTextual()) {
            return refused(EndedReason.ASSISTANT_REQUEST_RETURNED_ERROR, body.path("error").asText());
        }
        CallRequest asked;
        try {
            asked = new CallRequest(text(body, "assistantId"), read(body, "assistant", AssistantBody.class),
                    read(body, "assistantOverrides", AssistantOverrides.class), text(body, "squadId"),
                    read(body, "squad", SquadBody.class), null, null, null, null, null, null);
        } catch (ApiException invalid) {
            return refused(EndedReason.ASSISTANT_REQUEST_RETURNED_INVALID_ASSISTANT, REFUSAL);
        }
        int named = (asked.assistantId() != null ? 1 : 0) + (asked.assistant() != null ? 1 : 0)
                + (asked.squadId() != null ? 1 : 0) + (asked.squad() != null ? 1 : 0);
        if (named != 1) {
            return refused(EndedReason.ASSISTANT_REQUEST_RETURNED_INVALID_ASSISTANT, REFUSAL);
        }
        return frozen(orgId, asked, EndedReason.ASSISTANT_NOT_FOUND);
    }

    private Resolution frozen(String orgId, CallRequest request, EndedReason whenUnknown) {
        ObjectNode configuration = json.createObjectNode();
        try {
            freezing.freeze(orgId, request, configuration);
            configurations.effectiveAssistant(configuration); // overrides that do not apply are refused here
        } catch (ApiException unknown) {
            if (unknown.status() == 400) {
                return refused(whenUnknown, REFUSAL);
            }
            throw unknown;
        }
        return new Resolution(configuration, request.assistantId(), request.squadId(), null, null);
    }

    private static Resolution refused(EndedReason reason, String message) {
        return new Resolution(null, null, null, reason, message);
    }

    private <T> T read(ObjectNode body, String field, Class<T> type) {
        JsonNode value = body.get(field);
        return value == null || value.isNull() ? null : strict.read(value, type);
    }

    private static String text(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }
}
