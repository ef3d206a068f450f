package dev.voiceplane.call.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The call's status, type and ended reason are enums in the code and the same texts as before in their columns and
 * on the wire: a renamed constant or a changed text fails here before it changes a stored row or an answer.
 */
class WireValuesTest {

    private static <E extends Enum<E> & WireValue> Set<String> wires(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(WireValue::wire).collect(Collectors.toSet());
    }

    @Test
    void theColumnsHoldTheApisTexts() {
        assertEquals(Set.of("queued", "ringing", "in-progress", "forwarding", "ended"), wires(CallStatus.class));
        assertEquals(Set.of("inboundPhoneCall", "outboundPhoneCall", "webCall"), wires(CallType.class));
        // docs/api-reference.md "Calls", the runtime's reasons (docs/calls.md) and the sweeper's never-connected one.
        assertEquals(Set.of("customer-ended-call", "assistant-ended-call", "assistant-said-end-call-phrase",
                "assistant-forwarded-call", "customer-busy", "customer-did-not-answer", "exceeded-max-duration",
                "silence-timed-out", "voicemail", "manually-canceled", "assistant-error", "assistant-not-found",
                "assistant-request-failed", "assistant-request-returned-error",
                "assistant-request-returned-invalid-assistant", "twilio-failed-to-connect-call",
                "vonage-failed-to-connect-call", "vonage-rejected", "vonage-disconnected", "unknown-error",
                "server-shutdown", "phone-call-provider-closed-websocket",
                "vapi-error-phone-call-worker-call-never-connected"), wires(EndedReason.class));
        assertEquals(EndedReason.values().length, wires(EndedReason.class).size(), "two reasons share a text");
    }

    @Test
    void everyValueIsStoredAsItsTextAndReadBackAsItself() {
        roundTrip(new CallStatus.Column(), CallStatus.values());
        roundTrip(new CallType.Column(), CallType.values());
        roundTrip(new EndedReason.Column(), EndedReason.values());
        assertEquals("in-progress", new CallStatus.Column().convertToDatabaseColumn(CallStatus.IN_PROGRESS));
        assertEquals("outboundPhoneCall", new CallType.Column().convertToDatabaseColumn(CallType.OUTBOUND));
        assertEquals("vapi-error-phone-call-worker-call-never-connected",
                new EndedReason.Column().convertToDatabaseColumn(EndedReason.NEVER_CONNECTED));
    }

    @SafeVarargs
    private static <E extends Enum<E> & WireValue> void roundTrip(WireValue.Column<E> column, E... values) {
        for (E value : values) {
            String stored = column.convertToDatabaseColumn(value);
            assertEquals(value.wire(), stored);
            assertEquals(value, column.convertToEntityAttribute(stored));
        }
        assertNull(column.convertToDatabaseColumn(null));
        assertNull(column.convertToEntityAttribute(null));
    }

    @Test
    void aColumnTextNoConstantHasFailsLoudly() {
        IllegalStateException unknown = assertThrows(IllegalStateException.class,
                () -> new EndedReason.Column().convertToEntityAttribute("pipeline-error-openai-llm-failed"));
        assertTrue(unknown.getMessage().contains("pipeline-error-openai-llm-failed"), unknown.getMessage());
        assertThrows(IllegalStateException.class, () -> new CallStatus.Column().convertToEntityAttribute("Ended"));
        assertThrows(IllegalStateException.class, () -> new CallType.Column().convertToEntityAttribute("WEB"));
        assertEquals(Optional.empty(), CallStatus.of("in_progress"));
    }

    @Test
    void theRuntimeMayReportOnlyItsOwnReasons() {
        assertEquals(Optional.of(EndedReason.SILENCE_TIMED_OUT), EndedReason.fromRuntime("silence-timed-out"));
        assertEquals(Optional.of(EndedReason.ASSISTANT_FORWARDED_CALL),
                EndedReason.fromRuntime("assistant-forwarded-call"));
        // Reasons only call-service itself sets, unknown texts and none at all are refused.
        assertEquals(Optional.empty(), EndedReason.fromRuntime("manually-canceled"));
        assertEquals(Optional.empty(), EndedReason.fromRuntime("customer-busy"));
        assertEquals(Optional.empty(), EndedReason.fromRuntime("Customer-Ended-Call"));
        assertEquals(Optional.empty(), EndedReason.fromRuntime(null));
        List<String> listed = EndedReason.fromRuntimeWires();
        assertEquals(List.of("assistant-ended-call", "assistant-error", "assistant-forwarded-call",
                "assistant-said-end-call-phrase", "customer-ended-call", "exceeded-max-duration",
                "phone-call-provider-closed-websocket", "server-shutdown", "silence-timed-out", "unknown-error",
                "voicemail"), listed);
    }

    @Test
    void aFailedDialNamesItsCarrier() {
        assertEquals("vonage-failed-to-connect-call", EndedReason.failedToConnect("vonage").wire());
        assertEquals("twilio-failed-to-connect-call", EndedReason.failedToConnect("twilio").wire());
        assertEquals("twilio-failed-to-connect-call", EndedReason.failedToConnect(null).wire());
    }

    @Test
    void aCallMovesForwardOnlyAndEndedIsTerminal() {
        assertTrue(CallStatus.QUEUED.canMoveTo(CallStatus.IN_PROGRESS));
        assertTrue(CallStatus.IN_PROGRESS.canMoveTo(CallStatus.FORWARDING));
        assertFalse(CallStatus.IN_PROGRESS.canMoveTo(CallStatus.RINGING));
        assertFalse(CallStatus.RINGING.canMoveTo(CallStatus.RINGING));
        for (CallStatus next : CallStatus.values()) {
            assertFalse(CallStatus.ENDED.canMoveTo(next));
        }
        assertTrue(CallType.INBOUND.phone() && CallType.OUTBOUND.phone());
        assertFalse(CallType.WEB.phone());
    }
}
