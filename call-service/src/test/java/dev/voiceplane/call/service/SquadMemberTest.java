package dev.voiceplane.call.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A squad's members as frozen, read into {@link SquadMember}: which assistant each runs, its overrides, its destinations. */
class SquadMemberTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aMemberNamingAStoredAssistantIsReadWithItsOverridesAndDestinations() throws Exception {
        SquadMember member = SquadMember.of(JSON.readTree("""
                {"assistantId": "a-1",
                 "assistantOverrides": {"firstMessage": "Hi", "variableValues": {"name": "Ada"}},
                 "assistantDestinations": [{"type": "assistant", "assistantName": "Billing"}]}
                """));
        assertEquals(Optional.of("a-1"), member.assistantId());
        assertEquals(Optional.empty(), member.assistant());
        assertEquals(JSON.readTree("{\"firstMessage\": \"Hi\", \"variableValues\": {\"name\": \"Ada\"}}"),
                member.assistantOverrides().orElseThrow());
        assertEquals(JSON.readTree("{\"name\": \"Ada\"}"), member.variableValues().orElseThrow());
        // Handed on to the runtime as written.
        assertEquals(JSON.readTree("[{\"type\": \"assistant\", \"assistantName\": \"Billing\"}]"),
                member.assistantDestinations().orElseThrow());
    }

    @Test
    void anInlineMemberKeepsItsAssistantAsWritten() throws Exception {
        SquadMember member = SquadMember.of(JSON.readTree("""
                {"assistant": {"name": "Front desk", "model": {"provider": "openai", "toolIds": ["t-1"]}}}
                """));
        assertEquals(Optional.empty(), member.assistantId());
        assertEquals(JSON.readTree("{\"name\": \"Front desk\", \"model\": {\"provider\": \"openai\", \"toolIds\": [\"t-1\"]}}"),
                member.assistant().orElseThrow());
        assertEquals(Optional.empty(), member.assistantOverrides());
        assertEquals(Optional.empty(), member.variableValues());
        assertEquals(Optional.empty(), member.assistantDestinations());
    }

    @Test
    void oddShapesReadAsAbsentExceptANullDestinationsList() throws Exception {
        SquadMember member = SquadMember.of(JSON.readTree("""
                {"assistantId": 7, "assistant": "inline?", "assistantOverrides": {"variableValues": "x"},
                 "assistantDestinations": null}
                """));
        assertEquals(Optional.empty(), member.assistantId(), "only text names an assistant");
        assertEquals(Optional.empty(), member.assistant());
        assertEquals(Optional.empty(), member.variableValues(), "only an object holds variables");
        // The member has the field: the runtime gets it as written, null included.
        assertEquals(Optional.of(NullNode.getInstance()), member.assistantDestinations());
    }

    @Test
    void allMembersInOrderAndNoneWithoutAList() throws Exception {
        List<SquadMember> members = SquadMember.all(JSON.readTree("""
                {"members": [{"assistantId": "a-2"}, {"assistant": {"name": "B"}}, {"assistantId": "a-1"}]}
                """));
        assertEquals(List.of(Optional.of("a-2"), Optional.empty(), Optional.of("a-1")),
                members.stream().map(SquadMember::assistantId).toList());
        assertTrue(SquadMember.all(null).isEmpty());
        assertTrue(SquadMember.all(JSON.readTree("{\"name\": \"no members\"}")).isEmpty());
        assertTrue(SquadMember.all(JSON.readTree("{\"members\": {\"0\": {\"assistantId\": \"a-1\"}}}")).isEmpty());
    }
}
