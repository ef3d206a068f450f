package dev.voiceplane.call.delivery;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.standardwebhooks.Webhook;
import dev.voiceplane.call.repository.CallDocuments;
import dev.voiceplane.call.repository.CallRepository;
import dev.voiceplane.call.repository.DeliveryStore;
import dev.voiceplane.call.service.CallViews;
import dev.voiceplane.call.service.Configurations;
import dev.voiceplane.call.service.Details;
import dev.voiceplane.call.service.ToolCallRequests;
import dev.voiceplane.contracts.call.ToolCallResults;
import dev.voiceplane.contracts.call.ToolCallsRequest;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The runtime's function-tool calls ({@code POST /internal/call/{id}/runtime/tool-calls}, docs/calls.md): the
 * {@code tool-calls} message goes to the tool's server, else the assistant's, else the phone number's (those two
 * only when {@code serverMessages} has {@code tool-calls}), signed like every delivery with the target's own
 * {@code x-vapi-secret} and headers, within the server's {@code timeoutSeconds}, to targets the SSRF guard passes;
 * whatever goes wrong at the tool's server is each call's {@code error}, and a bad request is a 4xx.
 */
@QuarkusTest
class ToolCallDeliveryTest {

    @InjectWireMock
    WireMockServer receiver;

    @Inject
    ObjectMapper json;

    @Inject
    CallRepository calls;

    @Inject
    CallDocuments documents;

    @Inject
    Configurations configurations;

    @Inject
    CallViews views;

    @Inject
    Details details;

    @Inject
    Targets targets;

    @Inject
    DeliveryConfig config;

    @Inject
    DeliveryStore store;

    @Inject
    SigningSecrets secrets;

    @Inject
    DeliveryMetrics metrics;

    @Inject
    Vertx vertx;

    private static String tool(String name, String server) {
        return "{\"type\":\"function\",\"function\":{\"name\":\"" + name + "\",\"parameters\":{\"type\":\"object\","
                + "\"properties\":{\"order\":{\"type\":\"number\"}}}}" + (server == null ? "" : ",\"server\":" + server)
                + "}";
    }

    private static String webCall(String assistantExtra, String... tools) {
        return orgA().body("{\"assistant\":{\"name\":\"tools\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\","
                        + "\"tools\":[" + String.join(",", tools) + "]}" + assistantExtra + "}}")
                .when().post("/call/web").then().statusCode(201).extract().path("id");
    }

    private static String calling(String name, String callId, String arguments) {
        return "{\"toolCallList\":[{\"id\":\"" + callId + "\",\"type\":\"function\",\"function\":{\"name\":\"" + name
                + "\",\"arguments\":" + arguments + "}}]}";
    }

    private String path() {
        return "/tools/" + UUID.randomUUID();
    }

    private String url(String path) {
        return receiver.baseUrl() + path;
    }

    @Test
    void theToolsServerGetsASignedMessageAndItsResultComesBack() throws Exception {
        String path = path();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(okJson(
                "{\"results\":[{\"toolCallId\":\"call_1\",\"result\":\"Order 42 ships tomorrow.\"}]}")));
        String id = webCall(",\"serverUrl\":\"" + url("/assistant-server") + "\"", tool("lookup_order",
                "{\"url\":\"" + url(path) + "\",\"secret\":\"tool-secret-1\",\"headers\":{\"X-Shop\":\"harbour\"}}"));

        internal(TestKeys.ORG_A).body(calling("lookup_order", "call_1", "\"{\\\"order\\\": 42}\""))
                .when().post("/internal/call/" + id + "/runtime/tool-calls").then().statusCode(200)
                .body("results[0].toolCallId", equalTo("call_1"))
                .body("results[0].name", equalTo("lookup_order"))
                .body("results[0].result", equalTo("Order 42 ships tomorrow."))
                .body("results[0].error", nullValue());

        List<LoggedRequest> got = receiver.findAll(postRequestedFor(urlEqualTo(path)));
        assertEquals(1, got.size(), "the tool's own server, not the assistant's");
        LoggedRequest request = got.getFirst();
        assertEquals("tool-secret-1", request.getHeader("x-vapi-secret"));
        assertEquals("harbour", request.getHeader("X-Shop"));
        String secret = orgA().when().get("/call/webhook-secret").then().statusCode(200).extract().path("secret");
        new Webhook(secret).verify(request.getBodyAsString(), DeliveryTest.headers(request));
        assertFalse(request.getBodyAsString().contains("tool-secret-1"), "the secret is a header, never the body");
        JsonNode message = json.readTree(request.getBodyAsString()).path("message");
        assertEquals("tool-calls", message.path("type").asText());
        assertEquals(42, message.path("toolCallList").path(0).path("function").path("arguments").path("order").asInt(),
                "the model's arguments arrive as an object");
        assertEquals("call_1", message.path("toolWithToolCallList").path(0).path("toolCall").path("id").asText());
        assertEquals("lookup_order", message.path("toolWithToolCallList").path(0).path("function").path("name")
                .asText());
        assertEquals(id, message.path("call").path("id").asText());
        assertTrue(message.path("timestamp").isTextual());
        receiver.verify(0, postRequestedFor(urlEqualTo("/assistant-server")));
    }

    @Test
    void withoutAToolServerTheAssistantsServerIsAsked() {
        String path = path();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(okJson(
                "{\"results\":[{\"toolCallId\":\"c2\",\"result\":{\"slots\":[\"9:00\",\"11:30\"]}}]}")));
        String id = webCall(",\"serverUrl\":\"" + url(path) + "\",\"serverUrlSecret\":\"assistant-secret\"",
                tool("free_slots", null));
        internal(TestKeys.ORG_A).body(calling("free_slots", "c2", "{\"day\":\"monday\"}"))
                .when().post("/internal/call/" + id + "/runtime/tool-calls").then().statusCode(200)
                .body("results[0].result", equalTo("{\"slots\":[\"9:00\",\"11:30\"]}"));
        assertEquals("assistant-secret", receiver.findAll(postRequestedFor(urlEqualTo(path))).getFirst()
                .getHeader("x-vapi-secret"));
    }

    @Test
    void withoutToolCallsInServerMessagesOnlyTheToolsOwnServerIsAsked() {
        String path = path();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(okJson("{\"results\":[]}")));
        String id = webCall(",\"serverUrl\":\"" + url(path) + "\",\"serverMessages\":[\"end-of-call-report\"]",
                tool("free_slots", null));
        internal(TestKeys.ORG_A).body(calling("free_slots", "c3", "{}"))
                .when().post("/internal/call/" + id + "/runtime/tool-calls").then().statusCode(200)
                .body("results[0].error", equalTo("the tool has no server.url and the assistant's serverMessages"
                        + " leave out tool-calls, so no server was asked"));
        receiver.verify(0, postRequestedFor(urlEqualTo(path)));

        String none = webCall("", tool("free_slots", null));
        internal(TestKeys.ORG_A).body(calling("free_slots", "c4", "{}"))
                .when().post("/internal/call/" + none + "/runtime/tool-calls").then().statusCode(200)
                .body("results[0].error", equalTo("neither the tool, the assistant nor the phone number has a server"
                        + " URL"));
    }

    @Test
    void whatGoesWrongAtTheToolsServerIsEachCallsError() {
        String failing = path();
        receiver.stubFor(post(urlEqualTo(failing)).willReturn(aResponse().withStatus(500)));
        String garbage = path();
        receiver.stubFor(post(urlEqualTo(garbage)).willReturn(aResponse().withStatus(200).withBody("<html>ok</html>")));
        String other = path();
        receiver.stubFor(post(urlEqualTo(other)).willReturn(okJson(
                "{\"results\":[{\"toolCallId\":\"someone-else\",\"result\":\"x\"},{\"toolCallId\":\"c6\","
                        + "\"error\":\"no such order\"}]}")));
        String slow = path();
        receiver.stubFor(post(urlEqualTo(slow)).willReturn(okJson("{\"results\":[]}").withFixedDelay(3000)));
        String id = webCall("", tool("failing", "{\"url\":\"" + url(failing) + "\"}"),
                tool("garbage", "{\"url\":\"" + url(garbage) + "\"}"),
                tool("other", "{\"url\":\"" + url(other) + "\"}"),
                tool("slow", "{\"url\":\"" + url(slow) + "\",\"timeoutSeconds\":1}"));
        String route = "/internal/call/" + id + "/runtime/tool-calls";
        internal(TestKeys.ORG_A).body(calling("failing", "c5", "{}")).when().post(route).then().statusCode(200)
                .body("results[0].error", equalTo("the tool's server answered 500"));
        internal(TestKeys.ORG_A).body(calling("garbage", "c5", "{}")).when().post(route).then().statusCode(200)
                .body("results[0].error", equalTo("the tool's server answered no {\"results\": [...]}"));
        internal(TestKeys.ORG_A).body(calling("other", "c5", "{}")).when().post(route).then().statusCode(200)
                .body("results[0].error", equalTo("the tool's server answered no result for this call"));
        internal(TestKeys.ORG_A).body(calling("other", "c6", "{}")).when().post(route).then().statusCode(200)
                .body("results[0].error", equalTo("no such order"));
        internal(TestKeys.ORG_A).body(calling("slow", "c7", "{}")).when().post(route).then().statusCode(200)
                .body("results[0].error", equalTo("the tool's server gave no answer within 1000 ms"));
    }

    @Test
    void aToolServerResolvingToLoopbackIsRefusedWhenPrivateTargetsAreNotAllowed() {
        String path = path();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(okJson("{\"results\":[]}")));
        String id = webCall("", tool("lookup_order", "{\"url\":\"http://localhost:" + receiver.port() + path + "\"}"));
        Deliveries strict = new Deliveries(TestDeliveryConfig.of(config).allowingPrivate(false), store, targets,
                secrets, metrics, json, vertx);
        ToolCallRequests requests = new ToolCallRequests(calls, documents, configurations, views, details, strict,
                targets, json, Duration.ofSeconds(5));
        ToolCallResults results = requests.send(TestKeys.ORG_A, UUID.fromString(id), new ToolCallsRequest(List.of(
                new ToolCallsRequest.ToolCall("c8", "function", new ToolCallsRequest.Function("lookup_order",
                        json.createObjectNode())))));
        String error = results.results().getFirst().error();
        assertTrue(error.startsWith("the tool's server could not be asked: "), error);
        receiver.verify(0, postRequestedFor(urlEqualTo(path)));
    }

    @Test
    void aBadRequestIsA4xxAndAnotherOrganisationsCallIsNotFound() {
        String path = path();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(okJson("{\"results\":[]}")));
        String id = webCall("", tool("lookup_order", "{\"url\":\"" + url(path) + "\"}"),
                "{\"type\":\"endCall\"}");
        String route = "/internal/call/" + id + "/runtime/tool-calls";
        internal(TestKeys.ORG_B).body(calling("lookup_order", "c9", "{}")).when().post(route).then().statusCode(404);
        orgA().body(calling("lookup_order", "c9", "{}")).when().post(route).then().statusCode(401);
        internal(TestKeys.ORG_A).body(calling("endCall", "c9", "{}")).when().post(route).then().statusCode(400)
                .body("message", hasItem("toolCallList.0.function.name: the call's assistant has no function tool"
                        + " named endCall"));
        internal(TestKeys.ORG_A).body("{\"toolCallList\":[]}").when().post(route).then().statusCode(400)
                .body("statusCode", equalTo(400));
        internal(TestKeys.ORG_A).body("{\"toolCallList\":[{\"id\":\"c9\",\"function\":{}}]}").when().post(route)
                .then().statusCode(400);
        internal(TestKeys.ORG_A).body("not json").when().post(route).then().statusCode(400);
        internal(TestKeys.ORG_A).when().post(route).then().statusCode(400);
        internal(TestKeys.ORG_A).body(calling("lookup_order", "c9", "{}")).when()
                .post("/internal/call/" + newId() + "/runtime/tool-calls").then().statusCode(404);
        internal(TestKeys.ORG_A).body(calling("lookup_order", "c9", "{}")).when()
                .post("/internal/call/not-an-id/runtime/tool-calls").then().statusCode(anyOf4xx());
        receiver.verify(0, postRequestedFor(urlEqualTo(path)));

        orgA().when().post("/call/" + id + "/end").then().statusCode(200);
        internal(TestKeys.ORG_A).body(calling("lookup_order", "c9", "{}")).when().post(route).then().statusCode(409)
                .body("message", equalTo("the call has ended; its tools are not called"));
        receiver.verify(0, postRequestedFor(urlEqualTo(path)));
    }

    private static org.hamcrest.Matcher<Integer> anyOf4xx() {
        return org.hamcrest.Matchers.both(org.hamcrest.Matchers.greaterThanOrEqualTo(400))
                .and(org.hamcrest.Matchers.lessThan(500));
    }
}
