package dev.voiceplane.call.domain;

import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every {@code endedReason} this service writes (docs/api-reference.md, "Calls"; docs/calls.md, "Lifecycle"). The
 * set is closed: call-service is the only writer of {@code calls.ended_reason}, it sets the reasons below itself and
 * takes from the voice runtime only the {@link #FROM_RUNTIME} ones (any other is the runtime's 400), so the hosted
 * platform's longer list (reasons of features this platform does not have) never reaches the column. The two
 * carrier-named reasons are constants too: only Twilio and Vonage place calls.
 */
public enum EndedReason implements WireValue {
    CUSTOMER_ENDED_CALL("customer-ended-call"),
    ASSISTANT_ENDED_CALL("assistant-ended-call"),
    ASSISTANT_SAID_END_CALL_PHRASE("assistant-said-end-call-phrase"),
    ASSISTANT_FORWARDED_CALL("assistant-forwarded-call"),
    CUSTOMER_BUSY("customer-busy"),
    CUSTOMER_DID_NOT_ANSWER("customer-did-not-answer"),
    EXCEEDED_MAX_DURATION("exceeded-max-duration"),
    SILENCE_TIMED_OUT("silence-timed-out"),
    VOICEMAIL("voicemail"),
    MANUALLY_CANCELED("manually-canceled"),
    ASSISTANT_ERROR("assistant-error"),
    ASSISTANT_NOT_FOUND("assistant-not-found"),
    ASSISTANT_REQUEST_FAILED("assistant-request-failed"),
    ASSISTANT_REQUEST_RETURNED_ERROR("assistant-request-returned-error"),
    ASSISTANT_REQUEST_RETURNED_INVALID_ASSISTANT("assistant-request-returned-invalid-assistant"),
    TWILIO_FAILED_TO_CONNECT_CALL("twilio-failed-to-connect-call"),
    VONAGE_FAILED_TO_CONNECT_CALL("vonage-failed-to-connect-call"),
    VONAGE_REJECTED("vonage-rejected"),
    VONAGE_DISCONNECTED("vonage-disconnected"),
    UNKNOWN_ERROR("unknown-error"),
    SERVER_SHUTDOWN("server-shutdown"),
    PHONE_CALL_PROVIDER_CLOSED_WEBSOCKET("phone-call-provider-closed-websocket"),
    /** A call that never connected within the unanswered timeout (not outbound: those did not answer). */
    NEVER_CONNECTED("vapi-error-phone-call-worker-call-never-connected");

    /** What the voice runtime may report as the way a call ended. */
    public static final Set<EndedReason> FROM_RUNTIME = EnumSet.of(CUSTOMER_ENDED_CALL, ASSISTANT_ENDED_CALL,
            ASSISTANT_SAID_END_CALL_PHRASE, ASSISTANT_FORWARDED_CALL, EXCEEDED_MAX_DURATION, SILENCE_TIMED_OUT,
            VOICEMAIL, ASSISTANT_ERROR, UNKNOWN_ERROR, SERVER_SHUTDOWN, PHONE_CALL_PROVIDER_CLOSED_WEBSOCKET);

    /**
     * Runtime endings after which the carrier's call is not ours to hang up: it is over already, or it was
     * transferred to a number and goes on there.
     */
    public static final Set<EndedReason> CARRIER_GONE = EnumSet.of(CUSTOMER_ENDED_CALL,
            PHONE_CALL_PROVIDER_CLOSED_WEBSOCKET, ASSISTANT_FORWARDED_CALL);

    private final String wire;

    EndedReason(String wire) {
        this.wire = wire;
    }

    @Override
    public String wire() {
        return wire;
    }

    public static Optional<EndedReason> of(String wire) {
        return WireValue.find(EndedReason.class, wire);
    }

    /** A reason the runtime may report, from its wire text; empty for any other text (or none). */
    public static Optional<EndedReason> fromRuntime(String wire) {
        return of(wire).filter(FROM_RUNTIME::contains);
    }

    /** The runtime's reasons' wire texts in alphabetical order, as the 400 lists them. */
    public static List<String> fromRuntimeWires() {
        return FROM_RUNTIME.stream().map(EndedReason::wire).sorted().toList();
    }

    /** {@code twilio-failed-to-connect-call} / {@code vonage-failed-to-connect-call}: Twilio unless Vonage. */
    public static EndedReason failedToConnect(String provider) {
        return "vonage".equals(provider) ? VONAGE_FAILED_TO_CONNECT_CALL : TWILIO_FAILED_TO_CONNECT_CALL;
    }

    /** The {@code calls.ended_reason} column: the wire text. */
    @jakarta.persistence.Converter
    public static final class Column extends WireValue.Column<EndedReason> {
        public Column() {
            super(EndedReason.class);
        }
    }
}
