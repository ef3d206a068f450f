package dev.voiceplane.telephony.service;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the voice runtime is told with a call's media stream (docs/call-contracts.md §1): the call's id and its
 * organisation, which the runtime needs for {@code X-Voice-Org-Id} on call-service's internal routes. Twilio gets
 * them as {@code <Parameter>}s of {@code <Stream>} (its stream URL takes no query string), Vonage as websocket
 * headers. Always in this order, so documents are stable.
 */
public final class StreamParameters {

    public static final String CALL_ID = "callId";
    public static final String ORG_ID = "orgId";

    private StreamParameters() {
    }

    public static Map<String, String> of(String orgId, String callId) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put(CALL_ID, callId);
        parameters.put(ORG_ID, orgId);
        return parameters;
    }
}
