package dev.voiceplane.call.domain;

import java.util.Set;

/**
 * The era's {@code endedReason} values (docs/api-reference.md, "Calls"; docs/calls.md, "Lifecycle") this service emits
 * or accepts.
 */
public final class EndedReason {

    public static final String CUSTOMER_ENDED_CALL = "customer-ended-call";
    public static final String ASSISTANT_ENDED_CALL = "assistant-ended-call";
    public static final String CUSTOMER_BUSY = "customer-busy";
    public static final String CUSTOMER_DID_NOT_ANSWER = "customer-did-not-answer";
    public static final String EXCEEDED_MAX_DURATION = "exceeded-max-duration";
    public static final String VOICEMAIL = "voicemail";
    public static final String MANUALLY_CANCELED = "manually-canceled";
    public static final String ASSISTANT_NOT_FOUND = "assistant-not-found";
    public static final String ASSISTANT_REQUEST_FAILED = "assistant-request-failed";
    public static final String ASSISTANT_REQUEST_RETURNED_ERROR = "assistant-request-returned-error";
    public static final String ASSISTANT_REQUEST_RETURNED_INVALID_ASSISTANT = "assistant-request-returned-invalid-assistant";
    public static final String UNKNOWN_ERROR = "unknown-error";
    public static final String NEVER_CONNECTED = "vapi-error-phone-call-worker-call-never-connected";
    public static final String VONAGE_REJECTED = "vonage-rejected";
    public static final String VONAGE_DISCONNECTED = "vonage-disconnected";

    /** What the voice runtime may report as the way a call ended. */
    public static final Set<String> FROM_RUNTIME = Set.of(CUSTOMER_ENDED_CALL, ASSISTANT_ENDED_CALL,
            "assistant-said-end-call-phrase", "assistant-forwarded-call", EXCEEDED_MAX_DURATION, "silence-timed-out",
            VOICEMAIL, "assistant-error", UNKNOWN_ERROR, "server-shutdown", "phone-call-provider-closed-websocket");

    private EndedReason() {
    }

    /** {@code twilio-failed-to-connect-call} / {@code vonage-failed-to-connect-call}. */
    public static String failedToConnect(String provider) {
        return ("vonage".equals(provider) ? "vonage" : "twilio") + "-failed-to-connect-call";
    }
}
