package dev.voiceplane.call.service;

import dev.voiceplane.kit.auth.MediaTokenKey;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallRequest;
import dev.voiceplane.call.api.CallView;
import dev.voiceplane.call.api.InlinePhoneNumber;
import dev.voiceplane.call.client.Credentials;
import dev.voiceplane.call.client.Telephony;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.CallStatus;
import dev.voiceplane.call.domain.CallType;
import dev.voiceplane.call.repository.CallDocuments;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.call.repository.IdempotencyKeys;
import dev.voiceplane.contracts.assistant.SquadMember;
import dev.voiceplane.contracts.catalog.Providers;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.persistence.Ids;
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
    /** A UUID in any letter case; only the canonical lower-case form names a record (kit {@code Ids}). */
    private static final java.util.regex.Pattern UUID_TEXT = java.util.regex.Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    public static final String NEED_ONE_ASSISTANT = "Need Either `assistant`, `assistantId`, `squad`, Or `squadId`.";
    static final Duration KEY_LIFETIME = Duration.ofHours(24);
    static final int MAX_KEY_LENGTH = 255;

    private final CallRepository calls;
    private final CallDocuments documents;
    private final IdempotencyKeys keys;
    private final AssistantFreezing freezing;
    private final Telephony telephony;
    private final Credentials credentials;
    private final Dialling dialling;
    private final Configurations configurations;
    private final Details details;
    private final ServerMessages messages;
    private final LiveCallLimit limit;
    private final CallViews views;
    private final ObjectMapper json;
    private final Optional<String> webCallUrl;
    private final MediaTokenKey mediaTokens;
    private final int defaultMaxDuration;

    public CallCreation(CallRepository calls, CallDocuments documents, IdempotencyKeys keys,
            AssistantFreezing freezing, Telephony telephony, Credentials credentials, Dialling dialling,
            Configurations configurations, Details details,
            ServerMessages messages, LiveCallLimit limit, CallViews views,
            ObjectMapper json, @ConfigProperty(name = "voice.runtime.web-call-url") Optional<String> webCallUrl,
            MediaTokenKey mediaTokens, @ConfigProperty(name = "voice.call.default-max-duration-seconds") int defaultMaxDuration) {
        this.calls = calls;
        this.documents = documents;
        this.keys = keys;
        this.freezing = freezing;
        this.telephony = telephony;
        this.credentials = credentials;
        this.dialling = dialling;
        this.configurations = configurations;
        this.details = details;
        this.messages = messages;
        this.limit = limit;
        this.views = views;
        this.json = json;
        this.webCallUrl = webCallUrl.filter(url -> !url.isBlank());
        this.mediaTokens = mediaTokens;
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
        } else if (body.phoneNumber() != null) {
            dev.voiceplane.contracts.telephony.InlinePhoneNumber inline = inlineNumber(orgId, body.phoneNumber());
            phoneNumber = InlinePhoneNumber.configuration(orgId, inline);
            configuration.set("phoneNumber", json.valueToTree(phoneNumber));
            configuration.set(Configurations.INLINE_PHONE_NUMBER, json.valueToTree(inline));
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
        // The web call's socket is opened with a media token for this call only (docs/calls.md, "Voice runtime contract").
        String webUrl = url == null ? null : url.replaceAll("/+$", "") + "/" + id + "?token=" + mediaTokens.issue(orgId, id)
                .orElseThrow(() -> ApiException.unavailable("the voice runtime's media token key is not configured"
                        + " (VOICE_MEDIA_TOKEN_KEY), so no web call can be made; nothing was written"));
        PhoneNumberConfiguration number = phoneNumber;
        boolean outbound = CallType.OUTBOUND.equals(type);
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
            if (outbound) {
                dialling.announceFirst(call, call.createdAt);
            }
            calls.persist(call);
            calls.flush();
            documents.insert(orgId, id, configurations.write(configuration, call.sealingContext()));
            messages.statusUpdate(call);
            return Optional.<IdempotencyKeys.Used>empty();
        });
        if (heldBy.isPresent()) {
            return replay(orgId, heldBy.get(), requestHash);
        }
        if (outbound) {
            dialling.attempt(orgId, id);
        }
        return views.view(calls.findOwned(orgId, id).orElseThrow());
    }

    /**
     * An inline number, checked as far as call-service can: its fields (400 with the {@code phoneNumber.} path) and,
     * for vonage, that its credential is one of the organisation's vonage credentials. Returns it normalised.
     */
    private dev.voiceplane.contracts.telephony.InlinePhoneNumber inlineNumber(String orgId, InlinePhoneNumber number) {
        List<String> problems = number.problems();
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
        if (InlinePhoneNumber.VONAGE.equals(number.carrier())) {
            String provider = credentials.provider(orgId, number.credentialId()).orElseThrow(() -> ApiException.invalid(
                    "phoneNumber.credentialId " + number.credentialId() + " does not exist"));
            if (!InlinePhoneNumber.VONAGE.equals(Providers.canonical(provider))) {
                throw ApiException.invalid("phoneNumber.credentialId " + number.credentialId() + " is not a vonage credential");
            }
        }
        return number.normalised();
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
            if (body.phoneNumber() != null && body.phoneNumberId() != null) {
                problems.add("Need Either `phoneNumber` Or `phoneNumberId`, not both.");
            } else if (body.phoneNumber() == null && body.phoneNumberId() == null) {
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
        requireIds(body, problems);
        if (!problems.isEmpty()) {
            throw ApiException.invalid(problems);
        }
    }

    /**
     * Every id the call names is checked here, before any service is asked about it: a value that is not a UUID
     * (a 100 KB string, say) is the client's 400, never a peer's refusal reported as an outage. Non-canonical
     * spellings of a UUID (upper case) pass and are answered "does not exist" by the lookup, as before.
     */
    private static void requireIds(CallRequest body, List<String> problems) {
        requireId("assistantId", body.assistantId(), problems);
        requireId("squadId", body.squadId(), problems);
        requireId("phoneNumberId", body.phoneNumberId(), problems);
        if (body.squad() != null && body.squad().members() != null) {
            for (int i = 0; i < body.squad().members().size(); i++) {
                SquadMember member = body.squad().members().get(i);
                if (member != null) {
                    requireId("squad.members." + i + ".assistantId", member.assistantId(), problems);
                }
            }
        }
    }

    private static void requireId(String field, String value, List<String> problems) {
        if (value != null && !UUID_TEXT.matcher(value).matches()) {
            problems.add(field + " must be a UUID");
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
