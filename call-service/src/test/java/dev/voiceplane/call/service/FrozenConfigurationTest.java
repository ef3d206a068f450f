package dev.voiceplane.call.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.contracts.telephony.InlinePhoneNumber;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.json.JsonConventions;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The parts of a call's frozen configuration beside its assistants, read into {@link FrozenConfiguration}: the
 * numbers as the call froze them (the contract's records, written with the service's JSON rules) read back as they
 * were written, the squad's members, and what a configuration without them gives.
 */
class FrozenConfigurationTest {

    private static final ObjectMapper JSON = JsonConventions.apply(new ObjectMapper());

    @Test
    void theNumbersTheCallFrozeReadBackAsWritten() throws Exception {
        PhoneNumberConfiguration number = new PhoneNumberConfiguration(null, "org-1", "vonage", "vonage",
                "+15550001111", "Sales", null, "https://example.com/hook", "s3cret", null, "cred-1",
                (ObjectNode) JSON.readTree("{\"X-Team\": \"sales\"}"), new BigDecimal("2.5"));
        InlinePhoneNumber inline = new InlinePhoneNumber("vonage", "+15550001111", null, null, "cred-1", "Sales", null,
                "https://example.com/hook", "s3cret");
        ObjectNode configuration = JSON.createObjectNode();
        configuration.set("phoneNumber", JSON.valueToTree(number));
        configuration.set(Configurations.INLINE_PHONE_NUMBER, JSON.valueToTree(inline));
        // As stored and read back: numbers as PostgreSQL gives them, not as Java wrote them.
        ObjectNode stored = (ObjectNode) JSON.readTree(JSON.writeValueAsString(configuration));

        FrozenConfiguration frozen = FrozenConfiguration.of(stored, JSON);
        assertEquals(Optional.of(number), frozen.phoneNumber());
        assertEquals(Optional.of(inline), frozen.inlinePhoneNumber());
        assertEquals("vonage", frozen.carrier());
        assertEquals(Optional.empty(), frozen.squad());
        assertTrue(frozen.squadMembers().isEmpty());
        // What telephony-service gets for the inline number is what the call stored.
        assertEquals(stored.get(Configurations.INLINE_PHONE_NUMBER), JSON.valueToTree(frozen.inlinePhoneNumber().get()));
    }

    @Test
    void aCallWithoutNumbersOrSquadHasNoneAndDialsTwilio() throws Exception {
        FrozenConfiguration frozen = FrozenConfiguration.of(JSON.readTree("{\"assistant\": {\"name\": \"A\"}}"), JSON);
        assertEquals(Optional.empty(), frozen.phoneNumber());
        assertEquals(Optional.empty(), frozen.inlinePhoneNumber());
        assertEquals(Optional.empty(), frozen.squad());
        assertEquals("twilio", frozen.carrier(), "no number says otherwise");
        assertEquals("twilio", FrozenConfiguration.of(JSON.readTree("""
                {"phoneNumber": {"id": "n-1", "number": "+15550001111"}}
                """), JSON).carrier(), "a number that names no carrier");
    }

    @Test
    void aSquadIsItsMembersInOrder() throws Exception {
        FrozenConfiguration frozen = FrozenConfiguration.of(JSON.readTree("""
                {"squad": {"members": [{"assistantId": "a-1"}, {"assistant": {"name": "B"}}]},
                 "squadAssistants": [{"id": "a-1", "assistant": {"name": "A"}}]}
                """), JSON);
        assertEquals(List.of(Optional.of("a-1"), Optional.empty()),
                frozen.squad().orElseThrow().stream().map(SquadMember::assistantId).toList());
        assertEquals(frozen.squad().get(), frozen.squadMembers());
        assertEquals(Optional.of(List.of()), FrozenConfiguration.of(JSON.readTree("{\"squad\": {}}"), JSON).squad(),
                "a squad without members is still a squad");
    }

    @Test
    void aNumberThatIsNotWhatWasWrittenFailsLoudly() throws Exception {
        assertThrows(IllegalStateException.class, () -> FrozenConfiguration.of(JSON.readTree("""
                {"phoneNumber": {"number": 15550001111}}
                """), JSON));
    }

    @Test
    void theFrozenToolsByIdAndAnAssistantRunWithThem() throws Exception {
        FrozenConfiguration frozen = FrozenConfiguration.of(JSON.readTree("""
                {"tools": [{"id": "t-1", "tool": {"type": "function", "function": {"name": "one"}}},
                           {"id": "t-2", "tool": {"type": "endCall"}}, {"id": 3, "tool": {"type": "odd"}}]}
                """), JSON);
        assertEquals(List.of("t-1", "t-2"), List.copyOf(frozen.tools().keySet()), "only text ids name a tool");

        ObjectNode assistant = (ObjectNode) JSON.readTree("""
                {"model": {"tools": [{"type": "transferCall"}], "toolIds": ["t-2", "t-9", 7, "t-1"]}}
                """);
        AssistantFreezing.withTools(assistant, frozen.tools());
        // The inline tools first, then the frozen ones in the order the ids name them; unknown ids add nothing.
        assertEquals(JSON.readTree("""
                [{"type": "transferCall"}, {"type": "endCall"}, {"type": "function", "function": {"name": "one"}}]
                """), assistant.path("model").path("tools"));
        assertEquals(List.of("t-2", "t-9", "t-1"), AssistantSettings.toolIds(assistant));
        // Copies: the frozen definitions stay as they were.
        ((ObjectNode) assistant.path("model").path("tools").get(1)).put("changed", true);
        assertEquals(JSON.readTree("{\"type\": \"endCall\"}"), frozen.tools().get("t-2"));

        ObjectNode without = (ObjectNode) JSON.readTree("{\"model\": {\"provider\": \"openai\"}}");
        assertEquals(JSON.readTree("{\"model\": {\"provider\": \"openai\"}}"),
                AssistantFreezing.withTools(without, frozen.tools()), "no toolIds: unchanged");
    }
}
