package dev.voiceplane.call.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.CallRequest;
import dev.voiceplane.call.domain.Call;
import dev.voiceplane.call.domain.CallStatus;
import dev.voiceplane.call.domain.CallType;
import dev.voiceplane.call.repository.CallDocuments;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.call.repository.IdempotencyKeys;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.auth.MediaTokenKey;
import dev.voiceplane.kit.error.ApiException;
import dev.voiceplane.kit.persistence.Ids;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The second half of creating a call: one transaction claims the Idempotency-Key, checks the live-call limit and
 * inserts the call ({@code queued}), its frozen configuration and its {@code status-update}. A web call's URL carries
 * a media token for this call only (docs/calls.md, "Voice runtime contract").
 */
@ApplicationScoped
public class CallAdmission {

    /** The request's Idempotency-Key, the hash of its body, and how old a claim of it may be to count. */
    public record Key(String value, String requestHash, Instant notBefore) {
    }

    /** The new call's id, or the earlier call that holds the key ({@code heldBy}, then nothing was written). */
    public record Admitted(UUID id, Optional<IdempotencyKeys.Used> heldBy) {
    }

    private final CallRepository calls;
    private final CallDocuments documents;
    private final IdempotencyKeys keys;
    private final Dialling dialling;
    private final Configurations configurations;
    private final Details details;
    private final ServerMessages messages;
    private final LiveCallLimit limit;
    private final ObjectMapper json;
    private final Optional<String> webCallUrl;
    private final MediaTokenKey mediaTokens;
    private final int defaultMaxDuration;

    public CallAdmission(CallRepository calls, CallDocuments documents, IdempotencyKeys keys, Dialling dialling,
            Configurations configurations, Details details, ServerMessages messages, LiveCallLimit limit,
            ObjectMapper json, @ConfigProperty(name = "voice.runtime.web-call-url") Optional<String> webCallUrl,
            MediaTokenKey mediaTokens,
            @ConfigProperty(name = "voice.call.default-max-duration-seconds") int defaultMaxDuration) {
        this.calls = calls;
        this.documents = documents;
        this.keys = keys;
        this.dialling = dialling;
        this.configurations = configurations;
        this.details = details;
        this.messages = messages;
        this.limit = limit;
        this.json = json;
        this.webCallUrl = webCallUrl.filter(url -> !url.isBlank());
        this.mediaTokens = mediaTokens;
        this.defaultMaxDuration = defaultMaxDuration;
    }

    /** Writes the call, or answers who holds {@code key} already; {@code key} is null without an Idempotency-Key. */
    public Admitted admit(String orgId, CallRequest body, CallReferences.Resolved resolved, Key key) {
        UUID id = Ids.newId();
        String webUrl = resolved.type() == CallType.WEB ? webCallUrl(orgId, id) : null;
        AssistantSettings settings = resolved.settings();
        PhoneNumberConfiguration number = resolved.phoneNumber();
        boolean outbound = resolved.type() == CallType.OUTBOUND;
        Optional<IdempotencyKeys.Used> heldBy = QuarkusTransaction.requiringNew().call(() -> {
            if (key != null) {
                Optional<IdempotencyKeys.Used> other = keys.claim(orgId, key.value(), key.requestHash(), id,
                        key.notBefore());
                if (other.isPresent()) {
                    return other;
                }
            }
            if (!limit.admits(orgId)) {
                throw limit.refusal(orgId);
            }
            Call call = new Call();
            call.stampCreated(orgId, id);
            call.type = resolved.type();
            call.status = CallStatus.QUEUED;
            call.assistantId = body.assistantId();
            call.squadId = body.squadId();
            call.phoneNumberId = body.phoneNumberId();
            call.customerId = body.customerId();
            call.name = body.name();
            call.maxDurationSeconds = settings.maxDurationSeconds(defaultMaxDuration);
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
            details.keep(row, settings);
            if (number != null) {
                details.internal(row).set("phoneNumber", json.valueToTree(number.withoutSecret()));
            }
            details.write(call, row);
            if (outbound) {
                dialling.announceFirst(call, call.createdAt);
            }
            calls.persist(call);
            calls.flush();
            documents.insert(orgId, id, configurations.write(resolved.configuration(), call.sealingContext()));
            messages.statusUpdate(call);
            return Optional.<IdempotencyKeys.Used>empty();
        });
        return new Admitted(id, heldBy);
    }

    /** The web call's socket address, with a media token for this call only; a 503 when the runtime is not set up. */
    private String webCallUrl(String orgId, UUID id) {
        String url = webCallUrl.orElseThrow(() -> ApiException.unavailable(
                "the voice runtime is not configured (VOICE_RUNTIME_WEB_CALL_URL), so no web call can be made;"
                        + " nothing was written"));
        return url.replaceAll("/+$", "") + "/" + id + "?token=" + mediaTokens.issue(orgId, id)
                .orElseThrow(() -> ApiException.unavailable("the voice runtime's media token key is not configured"
                        + " (VOICE_MEDIA_TOKEN_KEY), so no web call can be made; nothing was written"));
    }
}
