package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallRequest;
import dev.voiceplane.call.api.CallView;
import dev.voiceplane.call.client.Telephony;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.CallStatus;
import dev.voiceplane.call.domain.CallType;
import dev.voiceplane.call.domain.EndedReason;
import dev.voiceplane.call.repository.CallDocuments;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.call.repository.IdempotencyKeys;
import dev.voiceplane.kit.contract.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.persistence.Ids;
import dev.voiceplane.kit.persistence.OrgScopedEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Creating calls ({@code POST /call}, {@code /call/phone}, {@code /call/web}). Following the transaction rule:
 * the body's references are checked against their services first (no transaction, nothing written on failure),
 * then one transaction claims the Idempotency-Key, checks the live-call limit, inserts the call ({@code queued}),
 * its frozen configuration and its {@code status-update}; an outbound call is dialled only after that commit, and
 * only by the request that created it.
 */
@ApplicationScoped
public class CallCreation {

    /** Which route was used. */
    public enum Route { CALL, PHONE, WEB }

    /** The era's message when a call names no assistant or squad, or more than one. */
    public static final String NEED_ONE_ASSISTANT = "Need Either `assistant`, `assistantId`, `squad`, Or `squadId`.";
    static final Duration KEY_LIFETIME = Duration.ofHours(24);
    static final int MAX_KEY_LENGTH = 255;

    private final CallRepository calls;
    private final CallDocuments documents;
    private final IdempotencyKeys keys;
    private final AssistantFreezing freezing;
    private final Telephony telephony;
    private final Configurations configurations;
    private final Details details;
    private final Lifecycle lifecycle;
    private final ServerMessages messages;
    private final LiveCallLimit limit;
    private final CallViews views;
    private final EndOfCall endOfCall;
    private final ObjectMapper json;
    private final Optional<String> webCallUrl;
    private final int defaultMaxDuration;

    public CallCreation(CallRepository calls, CallDocuments documents, IdempotencyKeys keys,
            AssistantFreezing freezing, Telephony telephony, Configurations configurations, Details details,
            Lifecycle lifecycle, ServerMessages messages, LiveCallLimit limit, CallViews views, EndOfCall endOfCall,
            ObjectMapper json, @ConfigProperty(name = "voice.runtime.web-call-url") Optional<String> webCallUrl,
            @ConfigProperty(name = "voice.call.default-max-duration-seconds") int defaultMaxDuration) {
        this.calls = calls;
        this.documents = documents;
        this.keys = keys;
        this.freezing = freezing;
        this.telephony = telephony;
        this.configurations = configurations;
        this.details = details;
        this.lifecycle = lifecycle;
        this.messages = messages;
        this.limit = limit;
        this.views = views;
        this.endOfCall = endOfCall;
        this.json = json;
        this.webCallUrl = webCallUrl.filter(url -> !url.isBlank());
        this.defaultMaxDuration = defaultMaxDuration;
    }

    public CallView create(String orgId, Route route, CallRequest body, String idempotencyKey) {
        String key = idempotencyKey(idempotencyKey);
        String requestHash = hash(route, body);
        if (key != null) {
            Optional<IdempotencyKeys.Used> used = keys.find(orgId, key, Instant.now().minus(KEY_LIFETIME));
            if (used.isPresent()) {
                return replay(orgId, used.get(), requestHash);
            }
        }
        String type = type(route, body);
        requireValid(route, type, body);

        // Remote checks and reads, before any transaction.
        ObjectNode configuration = json.createObjectNode();
        PhoneNumberConfiguration phoneNumber = null;
        if (body.phoneNumberId() != null) {
            phoneNumber = telephony.phoneNumber(orgId, body.phoneNumberId())
                    .orElseThrow(() -> ApiException.invalid("phoneNumberId " + body.phoneNumberId() + " does not exist"));
            configuration.set("phoneNumber", json.valueToTree(phoneNumber));
        }
        freezing.freeze(orgId, body, configuration);
        ObjectNode assistant = configurations.effectiveAssistant(configuration);
        String url = null;
        if (CallType.WEB.equals(type)) {
            url = webCallUrl.orElseThrow(() -> ApiException.unavailable(
                    "the voice runtime is not configured (VOICE_RUNTIME_WEB_CALL_URL), so no web call can be made;"
                            + " nothing was written"));
        }

        UUID id = Ids.newId();
        String webUrl = url == null ? null : url.replaceAll("/+$", "") + "/" + id;
        PhoneNumberConfiguration number = phoneNumber;
        Optional<IdempotencyKeys.Used> heldBy = QuarkusTransaction.requiringNew().call(() -> {
            if (key != null) {
                Optional<IdempotencyKeys.Used> other = keys.claim(orgId, key, requestHash, id,
                        Instant.now().minus(KEY_LIFETIME));
                if (other.isPresent()) {
                    return other;
                }
            }
            if (!limit.admits(orgId)) {
                throw limit.refusal(orgId);
            }
            Call call = new Call();
            call.stampCreated(orgId, id);
            call.type = type;
            call.status = CallStatus.QUEUED.wire();
            call.assistantId = body.assistantId();
            call.squadId = body.squadId();
            call.phoneNumberId = body.phoneNumberId();
            call.customerId = body.customerId();
            call.name = body.name();
            call.maxDurationSeconds = maxDuration(assistant);
            if (number != null) {
                call.phoneCallProvider = number.carrierName();
                call.phoneCallTransport = "pstn";
            }
            ObjectNode row = json.createObjectNode();
            if (body.customer() != null) {
                row.set("customer", json.valueToTree(body.customer()));
            }
            if (body.metadata() != null) {
                row.set("metadata", body.metadata());
            }
            if (webUrl != null) {
                row.put("webCallUrl", webUrl);
            }
            ObjectNode internal = details.internal(row);
            internal.set("serverMessages", json.valueToTree(configurations.serverMessages(assistant)));
            configurations.voicemailTypes(assistant).ifPresent(types -> internal.set("voicemailDetectionTypes", types));
            if (number != null) {
                internal.set("phoneNumber", json.valueToTree(number.withoutSecret()));
            }
            details.write(call, row);
            calls.persist(call);
            calls.flush();
            documents.insert(orgId, id, configurations.write(configuration, call.sealingContext()));
            messages.statusUpdate(call);
            return Optional.<IdempotencyKeys.Used>empty();
        });
        if (heldBy.isPresent()) {
            return replay(orgId, heldBy.get(), requestHash);
        }
        if (CallType.OUTBOUND.equals(type)) {
            dial(orgId, id, number, body, assistant);
        }
        return views.view(calls.findOwned(orgId, id).orElseThrow());
    }

    /** Places the outbound call; a refusal ends it as failed to connect (the client still gets its 201). */
    private void dial(String orgId, UUID id, PhoneNumberConfiguration number, CallRequest body, ObjectNode assistant) {
        ObjectNode voicemail = assistant.get("voicemailDetection") instanceof ObjectNode v ? v : null;
        Optional<Telephony.Dialled> dialled = telephony.dial(orgId, number.id(), id.toString(), body.customer(),
                voicemail, maxDuration(assistant));
        boolean endedMeanwhile = QuarkusTransaction.requiringNew().call(() -> {
            Call call = calls.findOwnedForChange(orgId, id).orElse(null);
            if (call == null) {
                return dialled.isPresent();
            }
            if (call.ended()) {
                // Ended on request while it was being dialled: the carrier call just placed must not ring on.
                if (dialled.isPresent() && call.phoneCallProviderId == null) {
                    call.phoneCallProviderId = dialled.get().phoneCallProviderId();
                    call.touch();
                }
                return dialled.isPresent();
            }
            if (dialled.isEmpty()) {
                lifecycle.end(call, EndedReason.failedToConnect(number.carrierName()), OrgScopedEntity.now());
                return false;
            }
            Telephony.Dialled placed = dialled.get();
            if (placed.phoneCallProvider() != null) {
                call.phoneCallProvider = placed.phoneCallProvider();
            }
            call.phoneCallProviderId = placed.phoneCallProviderId();
            if (placed.phoneCallProviderDetails() != null) {
                ObjectNode row = details.read(call);
                row.set("phoneCallProviderDetails", placed.phoneCallProviderDetails());
                details.write(call, row);
            }
            call.touch();
            return false;
        });
        if (endedMeanwhile) {
            telephony.hangUp(orgId, number.id(), dialled.get().phoneCallProviderId());
        }
        if (dialled.isEmpty()) {
            endOfCall.finaliseIfReady(orgId, id, false);
        }
    }

    private CallView replay(String orgId, IdempotencyKeys.Used used, String requestHash) {
        if (!used.requestHash().equals(requestHash)) {
            throw ApiException.conflict("Idempotency-Key was already used with another request body within 24 hours");
        }
        return views.view(calls.findOwned(orgId, used.callId()).orElseThrow(() -> ApiException.conflict(
                "Idempotency-Key belongs to a call that was deleted; use another key")));
    }

    private static String type(Route route, CallRequest body) {
        return switch (route) {
            case PHONE -> CallType.OUTBOUND;
            case WEB -> CallType.WEB;
            case CALL -> body.customer() != null || body.customerId() != null || body.phoneNumberId() != null
                    || body.phoneNumber() != null ? CallType.OUTBOUND : CallType.WEB;
        };
    }

    private static void requireValid(Route route, String type, CallRequest body) {
        int named = (body.assistantId() != null ? 1 : 0) + (body.assistant() != null ? 1 : 0)
                + (body.squadId() != null ? 1 : 0) + (body.squad() != null ? 1 : 0);
        if (named != 1) {
            throw ApiException.invalid(NEED_ONE_ASSISTANT);
        }
        List<String> problems = new ArrayList<>();
        if (CallType.OUTBOUND.equals(type)) {
            if (body.phoneNumber() != null) {
                problems.add("phoneNumber (an inline number) is not supported: import the number and give phoneNumberId");
            } else if (body.phoneNumberId() == null) {
                problems.add("Need Either `phoneNumber` Or `phoneNumberId`.");
            }
            if (body.customer() == null || body.customer().number() == null) {
                problems.add("customer.number must be given for a phone call");
            }
        } else if (route == Route.WEB) {
            if (body.phoneNumberId() != null) {
                problems.add("property phoneNumberId should not exist");
            }
            if (body.phoneNumber() != null) {
                problems.add("property phoneNumber should not exist");
            }
        }
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
    }

    private int maxDuration(ObjectNode assistant) {
        JsonNode max = assistant.get("maxDurationSeconds");
        return max != null && max.isNumber() ? max.intValue() : defaultMaxDuration;
    }

    private static String idempotencyKey(String header) {
        if (header == null) {
            return null;
        }
        if (header.isBlank() || header.length() > MAX_KEY_LENGTH) {
            throw ApiException.invalid("Idempotency-Key must be 1 to " + MAX_KEY_LENGTH + " characters");
        }
        return header;
    }

    /** The same body, whatever the order of its properties, hashes the same. */
    private String hash(Route route, CallRequest body) {
        try {
            byte[] canonical = json.writeValueAsBytes(sorted(json.valueToTree(body)));
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(route.name().getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            return HexFormat.of().formatHex(sha.digest(canonical));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("a call request cannot be hashed", e);
        }
    }

    private JsonNode sorted(JsonNode node) {
        if (node instanceof ObjectNode object) {
            TreeMap<String, JsonNode> fields = new TreeMap<>();
            object.properties().forEach(field -> fields.put(field.getKey(), sorted(field.getValue())));
            ObjectNode result = json.createObjectNode();
            fields.forEach(result::set);
            return result;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode result = json.createArrayNode();
            array.forEach(item -> result.add(sorted(item)));
            return result;
        }
        return node;
    }
}
