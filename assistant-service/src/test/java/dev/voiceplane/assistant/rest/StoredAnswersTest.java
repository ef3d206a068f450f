package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Each assistant, squad and tool is stored with its public answer's fields, which public reads copy as they are:
 * what is stored is exactly what a read answers; an answer written under another form of the type (a release whose
 * answers are written otherwise) is not answered, the document is; a hand edit of the document drops the stored
 * answer; a resource with secrets has no stored answer.
 */
@QuarkusTest
class StoredAnswersTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theStoredAnswerIsWhatAReadAnswers() throws Exception {
        String id = createAssistant(orgA(), "{\"name\":\"Ada\",\"firstMessage\":\"Hello é 😀\","
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"temperature\":0.70}}");
        String read = orgA().when().get("/assistant/" + id).then().statusCode(200).extract().asString();
        ObjectNode answered = (ObjectNode) JSON.readTree(read);
        answered.remove(java.util.List.of("id", "orgId", "createdAt", "updatedAt"));
        String stored = column("assistant.assistants", id, "answer");
        assertNotNull(stored);
        assertEquals(answered, JSON.readTree("{" + stored + "}"));
        // Byte for byte: the common fields, then the stored fields as they are.
        assertEquals(true, read.endsWith("\"," + stored + "}"), read);
    }

    @Test
    void anAnswerOfAnotherFormIsNotAnsweredTheDocumentIs() throws Exception {
        String id = createAssistant(orgA(), "{\"name\":\"current\"}");
        update("update assistant.assistants set answer = '\"name\":\"stale\"', answer_form = answer_form + 1"
                + " where org_id = ? and id = ?::uuid", id);
        orgA().when().get("/assistant/" + id).then().statusCode(200).body("name", equalTo("current"));
        orgA().queryParam("limit", 1000).when().get("/assistant").then().statusCode(200)
                .body("name", hasItem("current")).body("name", not(hasItem("stale")));

        // The next write stores the answer again, in the current form.
        orgA().body("{\"name\":\"renamed\"}").when().patch("/assistant/" + id).then().statusCode(200);
        assertEquals("\"name\":\"renamed\"", column("assistant.assistants", id, "answer"));
        orgA().when().get("/assistant/" + id).then().statusCode(200).body("name", equalTo("renamed"));
    }

    @Test
    void aHandEditOfTheDocumentIsWhatReadsAnswer() throws Exception {
        String id = createAssistant(orgA(), "{\"name\":\"as written\"}");
        update("update assistant.assistants set document = jsonb_set(document, '{name}', '\"edited by hand\"')"
                + " where org_id = ? and id = ?::uuid", id);
        assertNull(column("assistant.assistants", id, "answer"));
        orgA().when().get("/assistant/" + id).then().statusCode(200).body("name", equalTo("edited by hand"));
        orgA().queryParam("limit", 1000).when().get("/assistant").then().statusCode(200)
                .body("name", hasItem("edited by hand")).body("name", not(hasItem("as written")));
    }

    @Test
    void rowsWithoutAStoredAnswerAreAnsweredFromTheDocument() throws Exception {
        String id = createAssistant(orgA(), "{\"name\":\"before answers were stored\"}");
        update("update assistant.assistants set answer = null, answer_form = null where org_id = ? and id = ?::uuid",
                id);
        orgA().when().get("/assistant/" + id).then().statusCode(200)
                .body("name", equalTo("before answers were stored"));
        orgA().queryParam("limit", 1000).when().get("/assistant").then().statusCode(200)
                .body("name", hasItem("before answers were stored"));
    }

    @Test
    void aResourceWithASecretHasNoStoredAnswer() throws Exception {
        String secret = "whsec-" + UUID.randomUUID();
        String id = createAssistant(orgA(), "{\"name\":\"with a secret\",\"serverUrl\":"
                + "\"https://hooks.example.com/e\",\"serverUrlSecret\":\"" + secret + "\"}");
        assertNull(column("assistant.assistants", id, "answer"));
        orgA().when().get("/assistant/" + id).then().statusCode(200)
                .body("name", equalTo("with a secret")).body("serverUrlSecret", equalTo(null));
    }

    @Test
    void squadsAndToolsStoreTheirAnswersToo() throws Exception {
        String member = createAssistant(orgA());
        String squad = orgA().body("{\"name\":\"crew\",\"members\":[{\"assistantId\":\"" + member + "\"}]}")
                .when().post("/squad").then().statusCode(201).extract().path("id");
        assertEquals("\"name\":\"crew\",\"members\":[{\"assistantId\":\"" + member + "\"}]",
                column("assistant.squads", squad, "answer"));
        String tool = orgA().body("{\"type\":\"function\",\"function\":{\"name\":\"book\"}}")
                .when().post("/tool").then().statusCode(201).extract().path("id");
        assertNotNull(column("assistant.tools", tool, "answer"));
        update("update assistant.squads set answer_form = answer_form + 1, answer = '\"name\":\"stale\"'"
                + " where org_id = ? and id = ?::uuid", squad);
        orgA().when().get("/squad/" + squad).then().statusCode(200).body("name", equalTo("crew"));
        update("update assistant.tools set answer_form = answer_form + 1, answer = '\"type\":\"stale\"'"
                + " where org_id = ? and id = ?::uuid", tool);
        orgA().when().get("/tool/" + tool).then().statusCode(200).body("type", equalTo("function"));
    }

    private String column(String table, String id, String column) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "select " + column + " from " + table + " where org_id = ? and id = ?::uuid")) {
            select.setString(1, TestKeys.ORG_A);
            select.setString(2, id);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getString(1);
            }
        }
    }

    private void update(String sql, String id) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection.prepareStatement(sql)) {
            update.setString(1, TestKeys.ORG_A);
            update.setString(2, id);
            assertEquals(1, update.executeUpdate());
        }
    }
}
