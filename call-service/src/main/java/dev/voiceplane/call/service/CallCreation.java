package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallRequest;
import dev.voiceplane.call.api.CallView;
import dev.voiceplane.call.domain.CallType;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.call.repository.IdempotencyKeys;
import dev.voiceplane.kit.error.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Creating calls ({@code POST /call}, {@code /call/phone}, {@code /call/web}), in the transaction rule's order: an
 * Idempotency-Key seen before answers its call; the body's references are resolved against their services
 * ({@link CallReferences}: no transaction, nothing written on failure); then {@link CallAdmission} claims the key,
 * checks the live-call limit and writes the call in one transaction; an outbound call is dialled only after that
 * commit, and only by the request that created it.
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
    private final IdempotencyKeys keys;
    private final CallReferences references;
    private final CallAdmission admission;
    private final Dialling dialling;
    private final CallViews views;
    private final ObjectMapper json;

    public CallCreation(CallRepository calls, IdempotencyKeys keys, CallReferences references,
            CallAdmission admission, Dialling dialling, CallViews views, ObjectMapper json) {
        this.calls = calls;
        this.keys = keys;
        this.references = references;
        this.admission = admission;
        this.dialling = dialling;
        this.views = views;
        this.json = json;
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
        CallReferences.Resolved resolved = references.resolve(orgId, route, body);
        CallAdmission.Admitted admitted = admission.admit(orgId, body, resolved,
                key == null ? null : new CallAdmission.Key(key, requestHash, Instant.now().minus(KEY_LIFETIME)));
        if (admitted.heldBy().isPresent()) {
            return replay(orgId, admitted.heldBy().get(), requestHash);
        }
        if (resolved.type() == CallType.OUTBOUND) {
            dialling.attempt(orgId, admitted.id());
        }
        return views.view(calls.findOwned(orgId, admitted.id()).orElseThrow());
    }

    private CallView replay(String orgId, IdempotencyKeys.Used used, String requestHash) {
        if (!used.requestHash().equals(requestHash)) {
            throw ApiException.conflict("Idempotency-Key was already used with another request body within 24 hours");
        }
        return views.view(calls.findOwned(orgId, used.callId()).orElseThrow(() -> ApiException.conflict(
                "Idempotency-Key belongs to a call that was deleted; use another key")));
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
