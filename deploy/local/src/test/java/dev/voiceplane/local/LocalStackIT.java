package dev.voiceplane.local;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.runtime.fake.RawWebSocket;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The system test: the local stack started as {@code deploy/local/up} starts it, with the real credential-service,
 * exercised through the gateway only; then stopped with SIGTERM.
 */
class LocalStackIT {

    @TempDir
    static Path dataDirectory;

    private static StackUnderTest stack;

    @BeforeAll
    static void startStack() throws Exception {
        stack = StackUnderTest.start(dataDirectory, gatewayPort -> Map.of("VOICE_API_KEYS", "org-a:key-a,org-b:key-b"));
        RestAssured.baseURI = "http://localhost";
        RestAssured.port = stack.gatewayPort;
    }

    /** SIGTERM; everything it started is gone, and its ports are closed. */
    @AfterAll
    static void stopStack() throws Exception {
        if (stack != null) {
            stack.stop();
        }
    }

    @Test
    void aCredentialLivesThroughTheGatewayAndNeverShowsItsKey() {
        String id = UUID.randomUUID().toString();

        as("key-a").body("{\"provider\":\"openai\",\"apiKey\":\"sk-test-123\"}")
                .when().put("/credential/{id}", id)
                .then().statusCode(200)
                .header(Gateway.REQUEST_ID, notNullValue())
                .body("id", equalTo(id))
                .body("orgId", equalTo("org-a"))
                .body("provider", equalTo("openai"))
                .body("createdAt", notNullValue())
                .body("updatedAt", notNullValue())
                .body("$", not(hasKey("apiKey")));

        as("key-a").when().get("/credential/{id}", id)
                .then().statusCode(200)
                .header(Gateway.REQUEST_ID, notNullValue())
                .body("id", equalTo(id))
                .body("$", not(hasKey("apiKey")));

        as("key-a").when().get("/credential")
                .then().statusCode(200)
                .header(Gateway.REQUEST_ID, notNullValue())
                .body("id", hasItem(id));

        as("key-a").when().delete("/credential/{id}", id)
                .then().statusCode(200)
                .header(Gateway.REQUEST_ID, notNullValue())
                .body("id", equalTo(id))
                .body("provider", equalTo("openai"));

        as("key-a").when().get("/credential/{id}", id)
                .then().statusCode(404)
                .header(Gateway.REQUEST_ID, notNullValue())
                .body("statusCode", equalTo(404));
    }

    @Test
    void anotherOrganisationCannotSeeTheCredential() {
        String id = UUID.randomUUID().toString();
        as("key-a").body("{\"provider\":\"openai\",\"apiKey\":\"sk-test-456\"}")
                .when().put("/credential/{id}", id)
                .then().statusCode(200);

        as("key-b").when().get("/credential/{id}", id)
                .then().statusCode(404)
                .body("statusCode", equalTo(404));
        as("key-b").when().get("/credential")
                .then().statusCode(200)
                .body("id", not(hasItem(id)));
    }

    @Test
    void aRequestWithoutKeyIsUnauthorised() {
        given().when().get("/credential")
                .then().statusCode(401)
                .header(Gateway.REQUEST_ID, notNullValue())
                .body("statusCode", equalTo(401))
                .body("error", equalTo("Unauthorized"));
    }

    @Test
    void theCallersRequestIdComesBack() {
        as("key-a").header(Gateway.REQUEST_ID, "it-request-7").when().get("/credential")
                .then().statusCode(200)
                .header(Gateway.REQUEST_ID, "it-request-7");
    }

    @Test
    void internalRoutesAreNotReachableThroughTheGateway() {
        String path = "/internal/credential/" + UUID.randomUUID();

        as("key-a").when().get(path)
                .then().statusCode(404)
                .contentType(ContentType.JSON)
                .body("message", equalTo("Cannot GET " + path))
                .body("error", equalTo("Not Found"))
                .body("statusCode", equalTo(404));
    }

    @Test
    void assistantsAndSquadsAreServedThroughTheGateway() {
        String assistantId = as("key-a")
                .body("{\"name\":\"Front desk\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"}}")
                .when().post("/assistant")
                .then().statusCode(201)
                .body("orgId", equalTo("org-a"))
                .body("name", equalTo("Front desk"))
                .extract().path("id");
        as("key-a").when().get("/assistant/" + assistantId).then().statusCode(200).body("model.model", equalTo("gpt-4o"));
        String squadId = as("key-a").body("{\"members\":[{\"assistantId\":\"" + assistantId + "\"}]}")
                .when().post("/squad")
                .then().statusCode(201)
                .body("members[0].assistantId", equalTo(assistantId))
                .extract().path("id");
        as("key-a").when().get("/squad").then().statusCode(200).body("id", hasItem(squadId));
        as("key-b").when().get("/squad/" + squadId).then().statusCode(404);
        as("key-a").when().delete("/squad/" + squadId).then().statusCode(200).body("id", equalTo(squadId));
        as("key-a").when().delete("/assistant/" + assistantId).then().statusCode(200);
    }

    @Test
    void aKnowledgeBaseNamesFilesUploadedThroughTheGateway() {
        String fileId = given().header("Authorization", "Bearer key-a")
                .multiPart("file", "hours.md", "# Hours\nNine to five.".getBytes(StandardCharsets.UTF_8))
                .when().post("/file/upload")
                .then().statusCode(201)
                .body("object", equalTo("file"))
                .body("status", equalTo("indexed"))
                .body("mimetype", equalTo("text/markdown"))
                .extract().path("id");
        as("key-a").when().get("/file").then().statusCode(200).body("id", hasItem(fileId));
        String content = given().header("Authorization", "Bearer key-a").when().get("/file/" + fileId + "/content")
                .then().statusCode(200).extract().asString();
        assertTrue(content.equals("# Hours\nNine to five."), content);
        as("key-b").when().get("/file/" + fileId).then().statusCode(404);

        // assistant-service asks the real file-service (POST /internal/file/lookup) about the knowledge base.
        String unknown = UUID.randomUUID().toString();
        String assistantId = as("key-a").body(withFiles(fileId)).when().post("/assistant")
                .then().statusCode(201)
                .extract().path("id");
        as("key-a").body(withFiles(fileId, unknown)).when().post("/assistant")
                .then().statusCode(400)
                .body("message[0]", equalTo("model.knowledgeBase.fileIds contains unknown file ids: " + unknown));
        // Another organisation's file is unknown to it.
        as("key-b").body(withFiles(fileId)).when().post("/assistant").then().statusCode(400);

        as("key-a").when().delete("/assistant/" + assistantId).then().statusCode(200);
        as("key-a").when().delete("/file/" + fileId).then().statusCode(200).body("id", equalTo(fileId));
        as("key-a").when().get("/file/" + fileId).then().statusCode(404);
    }

    private static String withFiles(String... fileIds) {
        return "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"knowledgeBase\":{\"provider\":\"canonical\","
                + "\"fileIds\":[\"" + String.join("\",\"", fileIds) + "\"]}}}";
    }

    @Test
    void callsAreServedThroughTheGateway() {
        as("key-a").when().get("/call").then().statusCode(200);
        // call-service reaches assistant-service over the internal route: an unknown assistant is named.
        String unknown = java.util.UUID.randomUUID().toString();
        as("key-a").body("{\"assistantId\":\"" + unknown + "\"}").log().ifValidationFails().when().post("/call/web")
                .then().log().ifValidationFails().statusCode(400).body("message[0]", equalTo("assistantId " + unknown + " does not exist"));
        // The Ingress routes /media to the voice runtime, which the local stack runs: a web call gets a WebSocket
        // address on the gateway, and the runtime behind it checks the token call-service issued.
        String webCallUrl = as("key-a").body("{\"assistant\":{\"name\":\"gateway\"}}").when().post("/call/web")
                .then().statusCode(201).extract().path("webCallUrl");
        String prefix = "ws://localhost:" + stack.gatewayPort + "/media/web/";
        assertTrue(webCallUrl.startsWith(prefix) && webCallUrl.contains("?token="), webCallUrl);
        as("key-a").when().get("/call").then().statusCode(200).body("size()", equalTo(1));
        String path = webCallUrl.substring(prefix.length() - "/media/web/".length());
        String callPath = path.substring(0, path.indexOf('?'));
        given().when().get(callPath).then().statusCode(401)
                .body("message", org.hamcrest.Matchers.startsWith("a web call needs the token"));
        given().urlEncodingEnabled(false).when().get(path).then().statusCode(426);
    }

    @Test
    void hostileWebSocketHandshakesThroughTheGatewayLeaveTheCallToItsToken() throws Exception {
        String webCallUrl = as("key-a").body("{\"assistant\":{\"name\":\"hostile\"}}").when().post("/call/web")
                .then().statusCode(201).extract().path("webCallUrl");
        String target = webCallUrl.substring(webCallUrl.indexOf("/media/web/"));
        String callId = target.substring("/media/web/".length(), target.indexOf('?'));
        String upgrade = "Host: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n";
        String key = "Sec-WebSocket-Key: " + RawWebSocket.KEY + "\r\n";
        Map<String, Integer> hostile = Map.of(
                "POST " + target + " HTTP/1.1\r\n" + upgrade + key + "Sec-WebSocket-Version: 13\r\nContent-Length: 0\r\n\r\n", 405,
                "GET " + target + " HTTP/1.1\r\n" + upgrade + "Sec-WebSocket-Version: 13\r\n\r\n", 400,
                "GET " + target + " HTTP/1.1\r\n" + upgrade + key + "\r\n", 400,
                "GET " + target + " HTTP/1.1\r\n" + upgrade + key + "Sec-WebSocket-Version: 8\r\n\r\n", 426,
                // A token that cannot be valid, for the same call: the runtime's 401, relayed.
                RawWebSocket.handshake(target.substring(0, target.indexOf('?')) + "?token=v1." + callId
                        + ".b3JnLWE.9223372036854775807.AAAA", ""), 401);
        for (Map.Entry<String, Integer> request : hostile.entrySet()) {
            try (RawWebSocket refused = RawWebSocket.open(stack.gatewayPort, request.getKey())) {
                org.junit.jupiter.api.Assertions.assertEquals(request.getValue(), refused.answer.status(),
                        request.getKey() + "\n" + refused.answer.head());
                io.restassured.path.json.JsonPath body = new io.restassured.path.json.JsonPath(refused.answer.body());
                org.junit.jupiter.api.Assertions.assertEquals(request.getValue(), body.getInt("statusCode"),
                        refused.answer.body());
                assertTrue(body.getString("message") != null && body.getString("error") != null, refused.answer.body());
            }
        }
        as("key-a").when().get("/call/" + callId).then().statusCode(200).body("status", equalTo("queued"));
        // The genuine token still opens its call, offering a subprotocol the runtime does not speak: attached (the
        // local stack has no provider keys, so the call then ends with assistant-error), not refused as used up.
        try (RawWebSocket genuine = RawWebSocket.open(stack.gatewayPort, RawWebSocket.handshake(target,
                "Sec-WebSocket-Protocol: audio, audio.pcm16\r\n"))) {
            org.junit.jupiter.api.Assertions.assertEquals(101, genuine.answer.status(), genuine.answer.head());
            RawWebSocket.Ending ending = genuine.ending();
            assertTrue(ending.texts().stream().noneMatch(text -> text.contains("\"error\"")), ending.toString());
            org.junit.jupiter.api.Assertions.assertNotEquals(Integer.valueOf(1008), ending.code(), ending.toString());
        }
    }

    private static RequestSpecification as(String key) {
        return given().header("Authorization", "Bearer " + key).contentType(ContentType.JSON);
    }
}
