package dev.voiceplane.assistant.rest;

import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.assistant.api.AssistantView;
import dev.voiceplane.contracts.assistant.AssistantBody;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A create or a PATCH answers the text it stored (kit {@code WrittenDocument}), not a second serialisation of the
 * typed body: the answer must be, byte for byte, what serialising the typed body gives, and what a read of the
 * stored row answers.
 */
@QuarkusTest
class WriteAnswerTest {

    /** Non-ASCII, a character outside the BMP, escapes, numbers of every form, free-form JSON, both secrets. */
    private static final String BODY = "{\"name\":\"Zoë 😀 \\\"quoted\\\" \\\\ \\u0007\",\"firstMessage\":\"Grüße\\n\","
            + "\"silenceTimeoutSeconds\":30.50,\"maxDurationSeconds\":1e2,\"serverUrl\":\"https://hooks.example.com/e\","
            + "\"serverUrlSecret\":\"whsec-ü\",\"voice\":{\"provider\":\"azure\",\"voiceId\":\"andrew\",\"speed\":1.0},"
            + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"temperature\":0.7,\"maxTokens\":250,"
            + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"book\",\"parameters\":{\"type\":\"object\","
            + "\"properties\":{\"n\":{\"type\":\"number\",\"maximum\":12345678901234567890.5}}}},"
            + "\"server\":{\"url\":\"https://hooks.example.com/t\",\"secret\":\"tool-secret\"}}]},"
            + "\"endCallPhrases\":[\"bye\",\"\"],\"metadata\":{\"nested\":{\"a\":[1,2.50,-0.0,true,null,\"x\"]},\"secret\":1}}";

    /** {@link #BODY} as the public API shows it: the webhook secrets are write-only (free-form "secret" stays). */
    private static final String SHOWN = BODY.replace("\"serverUrlSecret\":\"whsec-ü\",", "")
            .replace(",\"secret\":\"tool-secret\"", "");

    @Inject
    ObjectMapper json;

    @Test
    void aCreateAnswersWhatSerialisingTheTypedBodyGives() throws Exception {
        String answer = orgA().body(BODY).when().post("/assistant").then().statusCode(201).extract().asString();

        assertFalse(answer.contains("whsec-ü") || answer.contains("tool-secret"), answer);
        assertEquals(typed(answer, SHOWN), answer);
        String id = JsonPath.from(answer).getString("id");
        assertEquals(answer, orgA().when().get("/assistant/" + id).then().statusCode(200).extract().asString());
    }

    @Test
    void aCreateWithoutSecretsAnswersTheSame() throws Exception {
        String body = "{\"name\":\"plain ü\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"temperature\":0.70},"
                + "\"metadata\":{}}";
        String answer = orgA().body(body).when().post("/assistant").then().statusCode(201).extract().asString();

        assertEquals(typed(answer, body), answer);
        String empty = orgA().body("{}").when().post("/assistant").then().statusCode(201).extract().asString();
        assertEquals(typed(empty, "{}"), empty);
    }

    @Test
    void aPatchAnswersWhatAReadOfTheStoredRowAnswers() {
        String id = orgA().body(BODY).when().post("/assistant").then().statusCode(201).extract().path("id");

        String patched = orgA().body("{\"name\":\"renamed ✓\",\"serverUrlSecret\":\"rotated\",\"metadata\":null}")
                .when().patch("/assistant/" + id).then().statusCode(200).extract().asString();

        assertEquals(orgA().when().get("/assistant/" + id).then().statusCode(200).extract().asString(), patched);
    }

    /** The answer as the typed body, with the answer's common fields, serialises to. */
    private String typed(String answer, String body) throws Exception {
        JsonPath common = JsonPath.from(answer);
        AssistantView view = new AssistantView(common.getString("id"), common.getString("orgId"),
                Instant.parse(common.getString("createdAt")), Instant.parse(common.getString("updatedAt")),
                json.readValue(body, AssistantBody.class));
        return new String(json.writeValueAsBytes(view), StandardCharsets.UTF_8);
    }
}
