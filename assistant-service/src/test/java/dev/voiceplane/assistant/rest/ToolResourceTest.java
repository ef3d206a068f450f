package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code /tool}: create, read, list, PATCH and DELETE as a client sees them; validation like assistants'; another
 * organisation's tools are 404s and unknown in {@code model.toolIds}; a tool an assistant names cannot be deleted;
 * its server secret is write-only and sealed at rest; the internal resolve route answers it opened.
 */
@QuarkusTest
class ToolResourceTest {

    @Inject
    AgroalDataSource dataSource;

    static final String FUNCTION = """
            {"type":"function","async":true,
             "messages":[{"type":"request-start","content":"One moment."},
                         {"type":"request-complete","content":"Booked.","conditions":[
                           {"param":"slot","operator":"eq","value":"09:00"}]}],
             "function":{"name":"book_slot","description":"Books a slot",
               "parameters":{"type":"object","properties":{"slot":{"type":"string"}},"required":["slot"]}},
             "server":{"url":"https://hooks.example.com/tools","headers":{"X-Api-Key":"k1"},"timeoutSeconds":15}}""";

    static String createTool(io.restassured.specification.RequestSpecification caller, String body) {
        return caller.body(body).when().post("/tool").then().statusCode(201).extract().path("id");
    }

    @Test
    void aToolIsCreatedReadListedPatchedAndDeleted() {
        String created = orgA().body(FUNCTION).when().post("/tool").then().statusCode(201)
                .body("orgId", equalTo(TestKeys.ORG_A))
                .body("type", equalTo("function"))
                .body("async", equalTo(true))
                .body("messages[1].conditions[0].value", equalTo("09:00"))
                .body("function.parameters.required", containsInAnyOrder("slot"))
                .body("server.headers.X-Api-Key", equalTo("k1"))
                .body("server.timeoutSeconds", equalTo(15))
                .extract().asString();
        String id = JsonPath.from(created).getString("id");
        assertEquals(Clients.tree(created), Clients.tree(orgA().when().get("/tool/" + id).then().statusCode(200)
                .extract().asString()));
        orgA().queryParam("limit", 1000).when().get("/tool").then().statusCode(200).body("id", hasItem(id));
        orgA().queryParam("colour", "blue").when().get("/tool").then().statusCode(400);

        String createdAt = JsonPath.from(created).getString("createdAt");
        orgA().body("{\"function\":{\"name\":\"book_slot_v2\"},\"async\":null}").when().patch("/tool/" + id)
                .then().statusCode(200)
                .body("function.name", equalTo("book_slot_v2"))
                .body("$", not(hasKey("async")))
                .body("server.url", equalTo("https://hooks.example.com/tools"))
                .body("createdAt", equalTo(createdAt));
        orgA().body("{\"type\":\"endCall\"}").when().patch("/tool/" + id).then().statusCode(400)
                .body("message", hasItem(containsString("type cannot be changed")));
        orgA().body("{\"type\":\"function\"}").when().patch("/tool/" + id).then().statusCode(200);

        orgA().when().delete("/tool/" + id).then().statusCode(200).body("id", equalTo(id));
        orgA().when().get("/tool/" + id).then().statusCode(404).body("message", equalTo("Tool not found"));
        orgA().when().delete("/tool/" + id).then().statusCode(404);
    }

    @Test
    void everyTypeOfTheEraIsAccepted() {
        for (String body : List.of("{\"type\":\"endCall\"}", "{\"type\":\"dtmf\"}",
                "{\"type\":\"transferCall\",\"destinations\":[{\"type\":\"assistant\",\"assistantName\":\"Billing\"}]}")) {
            orgA().body(body).when().post("/tool").then().statusCode(201);
        }
    }

    @Test
    void everyProblemIsListedAndUnknownPropertiesAreRefused() {
        orgA().body("{\"type\":\"teleport\",\"function\":{\"name\":\"no spaces allowed\"},"
                + "\"server\":{\"url\":\"ftp://x\",\"timeoutSeconds\":0,\"headers\":{\"Host\":\"evil\",\"X-N\":1}},"
                + "\"colour\":\"blue\"}")
                .when().post("/tool").then().statusCode(400)
                .body("error", equalTo("Bad Request"))
                .body("statusCode", equalTo(400))
                .body("message", hasItem(containsString("property colour should not exist")));
        orgA().body("{\"type\":\"teleport\",\"function\":{\"name\":\"no spaces allowed\"},"
                + "\"server\":{\"url\":\"ftp://x\",\"timeoutSeconds\":0,\"headers\":{\"Host\":\"evil\",\"X-N\":1}}}")
                .when().post("/tool").then().statusCode(400)
                .body("message", hasItem(containsString("type must be one of")))
                .body("message", hasItem(containsString("function.name")))
                .body("message", hasItem(containsString("server.url")))
                .body("message", hasItem(containsString("server.timeoutSeconds")))
                .body("message", hasItem(containsString("cannot set Host")))
                .body("message", hasItem(containsString("X-N must be a string")));
        orgA().body("{}").when().post("/tool").then().statusCode(400)
                .body("message", hasItem(containsString("type")));
    }

    @Test
    void anotherOrganisationsToolIsNotFoundAndNotNameable() {
        String theirs = createTool(orgB(), "{\"type\":\"endCall\"}");
        orgA().when().get("/tool/" + theirs).then().statusCode(404);
        orgA().body("{\"async\":true}").when().patch("/tool/" + theirs).then().statusCode(404);
        orgA().when().delete("/tool/" + theirs).then().statusCode(404);
        orgA().queryParam("limit", 1000).when().get("/tool").then().statusCode(200).body("id", not(hasItem(theirs)));
        String unknown = TestClients.newId();
        orgA().body(assistantNaming(theirs, unknown)).when().post("/assistant").then().statusCode(400)
                .body("message", hasItem("model.toolIds.0 refers to an unknown tool: " + theirs))
                .body("message", hasItem("model.toolIds.1 refers to an unknown tool: " + unknown));
        String assistant = createAssistant(orgA());
        orgA().body("{\"model\":" + modelNaming(theirs) + "}").when().patch("/assistant/" + assistant)
                .then().statusCode(400).body("message", hasItem(containsString(theirs)));
        orgA().body("{\"members\":[{\"assistant\":" + assistantNaming(theirs) + "}]}").when().post("/squad")
                .then().statusCode(400)
                .body("message", hasItem("members.0.assistant.model.toolIds.0 refers to an unknown tool: " + theirs));
        // The owner's assistants can name it.
        orgB().body(assistantNaming(theirs)).when().post("/assistant").then().statusCode(201)
                .body("model.toolIds", containsInAnyOrder(theirs));
    }

    @Test
    void aToolAnAssistantNamesCannotBeDeletedUntilNoneDoes() {
        String tool = createTool(orgA(), "{\"type\":\"endCall\"}");
        String first = createAssistant(orgA(), assistantNaming(tool));
        String second = createAssistant(orgA());
        orgA().body("{\"model\":" + modelNaming(tool) + "}").when().patch("/assistant/" + second)
                .then().statusCode(200);
        orgA().when().delete("/tool/" + tool).then().statusCode(409)
                .body("error", equalTo("Conflict"))
                .body("message", containsString(first))
                .body("message", containsString(second));
        orgA().when().get("/tool/" + tool).then().statusCode(200);
        // Dropping it from the model, and deleting the other assistant, frees it.
        orgA().body("{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"}}").when().patch("/assistant/" + first)
                .then().statusCode(200);
        orgA().when().delete("/tool/" + tool).then().statusCode(409).body("message", not(containsString(first)));
        orgA().when().delete("/assistant/" + second).then().statusCode(200);
        orgA().when().delete("/tool/" + tool).then().statusCode(200);
    }

    @Test
    void theServerSecretIsWriteOnlyAndSealedAndResolvedOpenedInternally() throws Exception {
        String secret = "whsec-tool-" + UUID.randomUUID();
        String body = "{\"type\":\"function\",\"function\":{\"name\":\"f\"},"
                + "\"server\":{\"url\":\"https://hooks.example.com/t\",\"secret\":\"" + secret + "\"}}";
        String created = orgA().body(body).when().post("/tool").then().statusCode(201)
                .body("server.url", equalTo("https://hooks.example.com/t")).extract().asString();
        String id = JsonPath.from(created).getString("id");
        List<String> answers = new ArrayList<>(List.of(created,
                orgA().when().get("/tool/" + id).then().statusCode(200).extract().asString(),
                orgA().queryParam("limit", 1000).when().get("/tool").then().statusCode(200).extract().asString(),
                orgA().body("{\"async\":false}").when().patch("/tool/" + id).then().statusCode(200)
                        .extract().asString()));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from assistant.tools where document::text"
                + " like ?", "%" + secret + "%"), "tool secret stored in clear");
        assertEquals(1, TestDatabase.count(dataSource, "select count(*) from assistant.tools where org_id = ?"
                + " and id = ?::uuid and document->'server'->>'secret' like 'sealed:v1:%'", TestKeys.ORG_A, id));
        String unknown = TestClients.newId();
        TestClients.internal(TestKeys.ORG_A).body("{\"ids\":[\"" + unknown + "\",\"" + id + "\",\"" + id + "\"]}")
                .when().post("/internal/tool/resolve").then().statusCode(200)
                .body("size()", equalTo(1))
                .body("[0].id", equalTo(id))
                .body("[0].server.secret", equalTo(secret));
        TestClients.internal(TestKeys.ORG_B).body("{\"ids\":[\"" + id + "\"]}")
                .when().post("/internal/tool/resolve").then().statusCode(200).body("size()", equalTo(0));
        answers.add(orgA().when().delete("/tool/" + id).then().statusCode(200).extract().asString());
        for (String answer : answers) {
            assertFalse(answer.contains(secret), "a secret answered: " + answer);
            assertFalse(answer.contains("\"secret\""), answer);
        }
    }

    @Test
    void aSquadPatchIsRefusedLikeItsPostWhenAnInlineMemberNamesADeletedTool() {
        String tool = createTool(orgA(), "{\"type\":\"endCall\"}");
        String squad = orgA().body("{\"name\":\"tools\",\"members\":[{\"assistant\":" + assistantNaming(tool) + "}]}")
                .when().post("/squad").then().statusCode(201).extract().path("id");
        // Tools are protected from deletion by stored assistants only: a squad's inline member does not keep it.
        orgA().when().delete("/tool/" + tool).then().statusCode(200);
        String message = "members.0.assistant.model.toolIds.0 refers to an unknown tool: " + tool;
        String stored = orgA().when().get("/squad/" + squad).then().statusCode(200).extract().asString();
        // What a POST of the squad as it would be after each PATCH answers, the PATCH answers too (issue 45).
        orgA().body("{\"name\":\"renamed\",\"members\":[{\"assistant\":" + assistantNaming(tool) + "}]}")
                .when().post("/squad").then().statusCode(400).body("message", hasItem(message));
        orgA().body("{\"name\":\"renamed\"}").when().patch("/squad/" + squad).then().statusCode(400)
                .body("statusCode", equalTo(400))
                .body("message", hasItem(message));
        orgA().body("{\"members\":[{\"assistant\":" + assistantNaming(tool) + "}]}").when().patch("/squad/" + squad)
                .then().statusCode(400).body("message", hasItem(message));
        assertEquals(stored, orgA().when().get("/squad/" + squad).then().statusCode(200).extract().asString(),
                "a refused PATCH changed the squad");
        // Replacing the members repairs it.
        orgA().body("{\"members\":[{\"assistant\":{\"name\":\"plain\"}}]}").when().patch("/squad/" + squad)
                .then().statusCode(200);
        orgA().body("{\"name\":\"renamed\"}").when().patch("/squad/" + squad).then().statusCode(200)
                .body("name", equalTo("renamed"));
    }

    static String modelNaming(String... toolIds) {
        return "{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"toolIds\":[\"" + String.join("\",\"", toolIds)
                + "\"]}";
    }

    static String assistantNaming(String... toolIds) {
        return "{\"name\":\"uses tools\",\"model\":" + modelNaming(toolIds) + "}";
    }
}
