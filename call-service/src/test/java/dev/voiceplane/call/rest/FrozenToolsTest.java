package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/**
 * The stored tools an assistant names in {@code model.toolIds} are read from assistant-service once, when the call is
 * created, and frozen into it: the voice runtime gets them after the inline tools in one {@code model.tools} list, a
 * later change of the tool does not change the call, the tool's secret is sealed in the call's documents, and an id
 * assistant-service does not know for the organisation is a 400 naming it.
 */
@QuarkusTest
class FrozenToolsTest {

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    private static String toolAnswer(String id, String name, String secret) {
        return "{\"id\":\"" + id + "\",\"orgId\":\"" + TestKeys.ORG_A + "\",\"createdAt\":\"2024-06-01T00:00:00.000Z\","
                + "\"updatedAt\":\"2024-06-01T00:00:00.000Z\",\"type\":\"function\",\"function\":{\"name\":\"" + name
                + "\"},\"server\":{\"url\":\"https://hooks.example.com/tool\",\"secret\":\"" + secret + "\"}}";
    }

    private void resolves(String toolId, String answer) {
        wireMock.stubFor(post(urlEqualTo("/internal/tool/resolve")).withHeader("X-Voice-Org-Id", equalTo(TestKeys.ORG_A))
                .withRequestBody(WireMock.matchingJsonPath("$.ids[0]", equalTo(toolId)))
                .willReturn(okJson(answer)));
    }

    @Test
    void namedToolsAreFrozenAndJoinTheInlineOnesForTheRuntime() throws Exception {
        String toolId = newId();
        String secret = "tool-frozen-secret-" + toolId;
        resolves(toolId, "[" + toolAnswer(toolId, "book_v1", secret) + "]");
        String assistantId = Stubs.assistant(wireMock, TestKeys.ORG_A, "{\"name\":\"a\",\"model\":{\"provider\":\"openai\","
                + "\"model\":\"gpt-4o\",\"tools\":[{\"type\":\"endCall\"}],\"toolIds\":[\"" + toolId + "\"]}}");
        String id = orgA().body("{\"assistantId\":\"" + assistantId + "\"}").when().post("/call/web").then()
                .statusCode(201).extract().path("id");
        wireMock.verify(postRequestedFor(urlEqualTo("/internal/tool/resolve")));

        // The tool changes afterwards: the call keeps what it was created with.
        resolves(toolId, "[" + toolAnswer(toolId, "book_v2", "another") + "]");
        internal(TestKeys.ORG_A).when().get("/internal/call/" + id + "/runtime").then().statusCode(200)
                .body("assistant.model.tools.type", contains("endCall", "function"))
                .body("assistant.model.tools[1].function.name", org.hamcrest.Matchers.equalTo("book_v1"))
                .body("assistant.model.tools[1].server.secret", org.hamcrest.Matchers.equalTo(secret))
                .body("assistant.model.tools[1]", not(hasKey("id")));
        String answer = orgA().when().get("/call/" + id).then().statusCode(200).extract().asString();
        assertFalse(answer.contains(secret), answer);
        String stored = Outboxes.column(dataSource,
                "select configuration::text from call.call_documents where call_id = ?::uuid", id).getFirst();
        assertFalse(stored.contains(secret), stored);
        assertTrue(stored.contains("book_v1"), stored);
    }

    @Test
    void aToolIdTheOrganisationDoesNotHaveIsA400NamingIt() {
        String toolId = newId();
        resolves(toolId, "[]");
        orgA().body("{\"assistant\":{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"toolIds\":[\"" + toolId
                + "\"]}}}").when().post("/call/web").then().statusCode(400)
                .body("message", hasItem("model.toolIds: tool " + toolId + " does not exist"));
    }
}
