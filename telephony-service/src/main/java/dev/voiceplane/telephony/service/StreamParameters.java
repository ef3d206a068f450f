package dev.voiceplane.telephony.service;

import dev.voiceplane.kit.auth.MediaTokenKey;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * What the voice runtime is told with a call's media stream (docs/call-contracts.md §1): the call's id, its
 * organisation (for {@code X-Voice-Org-Id} on call-service's internal routes) and the call's media token, without
 * which the runtime accepts no media (kit {@code MediaTokens}; issued when {@code VOICE_MEDIA_TOKEN_KEY} is set).
 * Twilio gets them as {@code <Parameter>}s of {@code <Stream>} (its stream URL takes no query string), Vonage as
 * websocket headers. Always in this order, so documents are stable.
 */
@ApplicationScoped
public class StreamParameters {

    public static final String CALL_ID = "callId";
    public static final String ORG_ID = "orgId";
    public static final String TOKEN = "token";

    private final MediaTokenKey tokens;

    public StreamParameters(MediaTokenKey tokens) {
        this.tokens = tokens;
    }

    public Map<String, String> of(String orgId, String callId) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put(CALL_ID, callId);
        parameters.put(ORG_ID, orgId);
        UUID id;
        try {
            id = UUID.fromString(callId);
        } catch (IllegalArgumentException notACallId) {
            return parameters;
        }
        tokens.issue(orgId, id).ifPresent(token -> parameters.put(TOKEN, token));
        return parameters;
    }
}
