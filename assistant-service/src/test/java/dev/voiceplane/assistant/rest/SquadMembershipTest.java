package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.assistant.rest.Clients.createSquad;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An assistant that squads name as a member cannot be deleted: 409 naming the squads. Once no squad names it,
 * it can. Inline assistants are copies, not references.
 */
@QuarkusTest
class SquadMembershipTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void deletingAMemberAssistantIsRefusedNamingTheSquads() {
        String assistant = createAssistant(orgA());
        String other = createAssistant(orgA());
        String first = createSquad(orgA(), assistant, other);
        String second = createSquad(orgA(), other, assistant, assistant);
        List<String> squads = new ArrayList<>(List.of(first, second));
        java.util.Collections.sort(squads);

        orgA().when().delete("/assistant/" + assistant).then().statusCode(409)
                .body("statusCode", equalTo(409))
                .body("error", equalTo("Conflict"))
                .body("message", equalTo("assistant is a member of squads: " + squads.get(0) + ", " + squads.get(1)
                        + "; remove it from them first"));
        orgA().when().get("/assistant/" + assistant).then().statusCode(200);

        orgA().when().delete("/squad/" + first).then().statusCode(200);
        orgA().when().delete("/assistant/" + assistant).then().statusCode(409)
                .body("message", equalTo("assistant is a member of squads: " + second + "; remove it from them first"));

        orgA().body("{\"members\":[{\"assistantId\":\"" + other + "\"}]}").when().patch("/squad/" + second)
                .then().statusCode(200);
        orgA().when().delete("/assistant/" + assistant).then().statusCode(200);
        orgA().when().get("/squad/" + second).then().statusCode(200);
        orgA().when().delete("/assistant/" + other).then().statusCode(409);
    }

    @Test
    void aLongListOfSquadsIsCutShort() {
        String assistant = createAssistant(orgA());
        List<String> squads = new ArrayList<>();
        for (int i = 0; i < 22; i++) {
            squads.add(createSquad(orgA(), assistant));
        }
        java.util.Collections.sort(squads);
        orgA().when().delete("/assistant/" + assistant).then().statusCode(409)
                .body("message", equalTo("assistant is a member of squads: " + String.join(", ", squads.subList(0, 20))
                        + " (and 2 more); remove it from them first"));
    }

    @Test
    void inlineAssistantsAreNotReferences() {
        String assistant = createAssistant(orgA(), "{\"name\":\"Copied\"}");
        String squad = orgA().body("{\"members\":[{\"assistant\":{\"name\":\"Copied\"}}]}").when().post("/squad")
                .then().statusCode(201).extract().path("id");
        orgA().when().delete("/assistant/" + assistant).then().statusCode(200);
        orgA().when().get("/squad/" + squad).then().statusCode(200).body("members[0].assistant.name", equalTo("Copied"));
    }

    @Test
    void membershipFollowsTheSquadsMembers() throws Exception {
        String a = createAssistant(orgA());
        String b = createAssistant(orgA());
        String squad = createSquad(orgA(), a, a);
        assertEquals(List.of(a), memberAssistants(squad));
        orgA().body("{\"members\":[{\"assistantId\":\"" + b + "\"},{\"assistant\":{}}]}").when().patch("/squad/" + squad)
                .then().statusCode(200);
        assertEquals(List.of(b), memberAssistants(squad));
        orgA().body("{}").when().patch("/squad/" + squad).then().statusCode(200);
        assertEquals(List.of(b), memberAssistants(squad));
        orgA().when().delete("/squad/" + squad).then().statusCode(200);
        assertEquals(List.of(), memberAssistants(squad));
        orgA().when().delete("/assistant/" + a).then().statusCode(200);
        orgA().when().delete("/assistant/" + b).then().statusCode(200);
    }

    private List<String> memberAssistants(String squad) throws Exception {
        List<String> ids = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "select assistant_id::text from assistant.squad_member_assistants where squad_id = ?::uuid"
                                + " order by assistant_id")) {
            statement.setString(1, squad);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
        }
        return ids;
    }
}
