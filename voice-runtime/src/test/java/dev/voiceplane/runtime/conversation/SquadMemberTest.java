package dev.voiceplane.runtime.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A squad call's members as the runtime reads them from call-service's configuration, for the hand-offs. */
class SquadMemberTest {

    private final ObjectMapper json = new ObjectMapper();

    private static final String SQUAD = """
            {"call":{"type":"inboundPhoneCall"},
             "assistant":{"name":"Front desk","firstMessage":"Hi {{name}}",
               "model":{"provider":"openai","model":"gpt-4o-mini","messages":[{"role":"system","content":"Desk."}],
                        "tools":[{"type":"transferCall","destinations":[{"type":"number","number":"+14155550177"}]}]}},
             "squad":{"members":[
               {"assistant":{"name":"Front desk","firstMessage":"Hi {{name}}",
                  "model":{"provider":"openai","model":"gpt-4o-mini","messages":[{"role":"system","content":"Desk."}],
                           "tools":[{"type":"transferCall","destinations":[{"type":"number","number":"+14155550177"}]}]}},
                "assistantDestinations":[{"type":"assistant","assistantName":"Billing","message":"One moment."}]},
               {"assistant":{"name":"Billing","firstMessageMode":"assistant-waits-for-user","firstMessage":"{{name}}?",
                  "model":{"provider":"groq","model":"llama","messages":[{"role":"system","content":"Bills for {{name}}."}]},
                  "voice":{"provider":"11labs","voiceId":"adam"}},
                "variableValues":{"name":"Ada B"}}]},
             "variableValues":{"name":"Ada"}}""";

    @Test
    void everyMemberHasItsPlanItsNameAndItsDestinations() throws Exception {
        CallPlan plan = CallPlan.read(UUID.randomUUID(), "org", json.readTree(SQUAD));
        assertEquals(2, plan.squad().size());
        SquadMember desk = plan.squad().get(0);
        SquadMember billing = plan.squad().get(1);
        assertEquals("Front desk", desk.name());
        assertEquals(List.of(new TransferDestination("assistant", "Billing", null, "One moment.", null)),
                desk.destinations());
        assertEquals("Billing", billing.name());
        assertEquals("groq", billing.plan().model().provider());
        assertEquals("adam", billing.plan().voice().voiceId());
        assertEquals("Bills for Ada B.", billing.plan().model().messages().getFirst().content(),
                "a member's own variables fill its prompt");
        assertTrue(!billing.plan().assistantSpeaksFirst());
        assertTrue(billing.plan().squad().isEmpty(), "a member's plan does not nest the squad");
        assertEquals("Hi Ada", plan.firstMessage());
    }

    @Test
    void assistantDestinationsJoinTheMembersTransferToolOrBecomeOne() throws Exception {
        JsonNode configuration = json.readTree(SQUAD);
        JsonNode desk = SquadMember.withHandOffs(configuration.path("assistant"),
                configuration.path("squad").path("members").path(0));
        JsonNode tools = desk.path("model").path("tools");
        assertEquals(1, tools.size(), "added to the member's own transferCall tool");
        assertEquals(List.of("+14155550177", "Billing"), TransferDestination.readAll(tools.get(0).path("destinations"))
                .stream().map(TransferDestination::name).toList());
        assertEquals(1, configuration.path("assistant").path("model").path("tools").get(0).path("destinations").size(),
                "the configuration itself is not changed");

        JsonNode alone = SquadMember.withHandOffs(json.readTree("{\"name\":\"Billing\"}"), json.readTree(
                "{\"assistantDestinations\":[{\"type\":\"assistant\",\"assistantName\":\"Front desk\"}]}"));
        assertEquals("transferCall", alone.path("model").path("tools").get(0).path("type").asText());
        assertEquals("Front desk", alone.path("model").path("tools").get(0).path("destinations").get(0)
                .path("assistantName").asText());
        JsonNode none = json.readTree("{\"name\":\"Solo\"}");
        assertEquals(none, SquadMember.withHandOffs(none, json.readTree("{}")));
    }
}
