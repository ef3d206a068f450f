package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The customer's webhook secrets ({@code serverUrlSecret}, a tool's {@code server.secret}) are write-only: accepted,
 * never in a public answer (create, read, list, PATCH, DELETE), answered opened only on the internal routes
 * call-service freezes calls from; never stored in clear, in assistants or in squads; and a sealed value copied into
 * another row does not open there.
 */
@QuarkusTest
class SecretsAtRestTest {

    @Inject
    AgroalDataSource dataSource;

    private static String assistantWithSecrets(String serverSecret, String toolSecret) {
        return "{\"serverUrl\":\"https://hooks.example.com/e\",\"serverUrlSecret\":\"" + serverSecret + "\","
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"tools\":[{\"type\":\"function\","
                + "\"function\":{\"name\":\"book\"},\"server\":{\"url\":\"https://hooks.example.com/t\",\"secret\":\""
                + toolSecret + "\"}}]}}";
    }

    private static ValidatableResponse internalAssistant(String id) {
        return TestClients.internal(TestKeys.ORG_A).when().get("/internal/assistant/" + id).then().statusCode(200);
    }

    @Test
    void assistantSecretsAreWriteOnlyAndStoredSealed() throws Exception {
        String serverSecret = "whsec-server-" + UUID.randomUUID();
        String toolSecret = "whsec-tool-" + UUID.randomUUID();
        String created = orgA().body(assistantWithSecrets(serverSecret, toolSecret)).when().post("/assistant")
                .then().statusCode(201)
                .body("serverUrl", equalTo("https://hooks.example.com/e"))
                .body("model.tools[0].server.url", equalTo("https://hooks.example.com/t"))
                .extract().asString();
        String id = JsonPath.from(created).getString("id");
        List<String> answers = new ArrayList<>(List.of(created,
                orgA().when().get("/assistant/" + id).then().statusCode(200).extract().asString(),
                orgA().queryParam("limit", 1000).when().get("/assistant").then().statusCode(200).extract().asString()));

        internalAssistant(id)
                .body("serverUrlSecret", equalTo(serverSecret))
                .body("model.tools[0].server.secret", equalTo(toolSecret));
        assertEquals(0, stored("assistant.assistants", serverSecret), "serverUrlSecret stored in clear");
        assertEquals(0, stored("assistant.assistants", toolSecret), "tool secret stored in clear");
        assertEquals(1, TestDatabase.count(dataSource, "select count(*) from assistant.assistants where org_id = ?"
                + " and id = ?::uuid and document->>'serverUrlSecret' like 'sealed:v1:%'", TestKeys.ORG_A, id));

        // A PATCH that does not touch the secrets keeps them; one that does re-seals the new value.
        answers.add(orgA().body("{\"name\":\"renamed\"}").when().patch("/assistant/" + id).then().statusCode(200)
                .body("name", equalTo("renamed")).extract().asString());
        internalAssistant(id).body("serverUrlSecret", equalTo(serverSecret));
        String rotated = "whsec-rotated-" + UUID.randomUUID();
        answers.add(orgA().body("{\"serverUrlSecret\":\"" + rotated + "\"}").when().patch("/assistant/" + id)
                .then().statusCode(200).extract().asString());
        internalAssistant(id)
                .body("serverUrlSecret", equalTo(rotated))
                .body("model.tools[0].server.secret", equalTo(toolSecret));
        assertEquals(0, stored("assistant.assistants", rotated));
        answers.add(orgA().when().delete("/assistant/" + id).then().statusCode(200).extract().asString());
        for (String answer : answers) {
            for (String secret : List.of(serverSecret, toolSecret, rotated)) {
                assertFalse(answer.contains(secret), "a secret answered: " + answer);
            }
            assertFalse(answer.contains("\"serverUrlSecret\"") || answer.contains("\"secret\""), answer);
        }
    }

    @Test
    void squadMemberSecretsAreWriteOnlyAndStoredSealed() throws Exception {
        String inlineSecret = "whsec-inline-" + UUID.randomUUID();
        String overrideSecret = "whsec-override-" + UUID.randomUUID();
        String stored = createAssistant(orgA());
        String body = "{\"members\":[{\"assistant\":" + assistantWithSecrets(inlineSecret, inlineSecret)
                + "},{\"assistantId\":\"" + stored + "\",\"assistantOverrides\":{\"serverUrlSecret\":\""
                + overrideSecret + "\"}}]}";
        String created = orgA().body(body).when().post("/squad").then().statusCode(201)
                .body("members[0].assistant.serverUrl", equalTo("https://hooks.example.com/e"))
                .extract().asString();
        String squad = JsonPath.from(created).getString("id");
        List<String> answers = List.of(created,
                orgA().when().get("/squad/" + squad).then().statusCode(200).extract().asString(),
                orgA().queryParam("limit", 1000).when().get("/squad").then().statusCode(200).extract().asString(),
                orgA().body(body).when().patch("/squad/" + squad).then().statusCode(200).extract().asString());
        for (String answer : answers) {
            assertFalse(answer.contains(inlineSecret) || answer.contains(overrideSecret), answer);
            assertFalse(answer.contains("\"serverUrlSecret\"") || answer.contains("\"secret\""), answer);
        }
        TestClients.internal(TestKeys.ORG_A).when().get("/internal/squad/" + squad).then().statusCode(200)
                .body("members[0].assistant.serverUrlSecret", equalTo(inlineSecret))
                .body("members[0].assistant.model.tools[0].server.secret", equalTo(inlineSecret))
                .body("members[1].assistantOverrides.serverUrlSecret", equalTo(overrideSecret));
        assertEquals(0, stored("assistant.squads", inlineSecret));
        assertEquals(0, stored("assistant.squads", overrideSecret));
    }

    @Test
    void aSealedSecretCopiedIntoAnotherRowDoesNotOpen() throws Exception {
        String secret = "whsec-copied-" + UUID.randomUUID();
        String source = createAssistant(orgA(), assistantWithSecrets(secret, "t"));
        String target = createAssistant(orgA(), "{\"name\":\"target " + TestClients.newId() + "\"}");
        try (Connection connection = dataSource.getConnection();
                PreparedStatement copy = connection.prepareStatement("update assistant.assistants t set document ="
                        + " jsonb_set(t.document, '{serverUrlSecret}', s.document->'serverUrlSecret')"
                        + " from assistant.assistants s where t.org_id = ? and t.id = ?::uuid"
                        + " and s.org_id = t.org_id and s.id = ?::uuid")) {
            copy.setString(1, TestKeys.ORG_A);
            copy.setString(2, target);
            copy.setString(3, source);
            assertEquals(1, copy.executeUpdate());
        }
        // The row it was sealed for still opens it; the copy does not give the secret away.
        internalAssistant(source).body("serverUrlSecret", equalTo(secret));
        internalAssistant(target)
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("serverUrlSecret")));
        orgA().when().get("/assistant/" + target).then().statusCode(200)
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("serverUrlSecret")));
    }

    private long stored(String table, String text) throws Exception {
        return TestDatabase.count(dataSource, "select count(*) from " + table + " where document::text like ?",
                "%" + text + "%");
    }
}
