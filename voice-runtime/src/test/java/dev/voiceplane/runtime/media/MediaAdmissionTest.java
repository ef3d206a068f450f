package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.auth.MediaTokens;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Who gets in: a media connection is accepted only with a valid media token for a call call-service lets the
 * runtime attach to; anything else is closed with a reason and touches no call. A call the runtime cannot run
 * (a provider it does not speak, no key) ends at once with {@code assistant-error} and a transcript line saying why.
 */
@QuarkusTest
class MediaAdmissionTest {

    private static Vertx vertx;
    private final MediaTokens tokens = new MediaTokens(TestKeys.MEDIA_TOKEN_KEY);

    @InjectWireMock
    WireMockServer wireMock;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    /** One client socket: what it received and how it was closed. */
    static final class Socket {
        final WebSocket socket;
        final List<String> texts = new CopyOnWriteArrayList<>();
        final CompletableFuture<Short> closed = new CompletableFuture<>();

        Socket(WebSocket socket) {
            this.socket = socket;
            socket.textMessageHandler(texts::add);
            socket.closeHandler(ignored -> closed.complete(socket.closeStatusCode()));
        }

        void send(String text) {
            socket.writeTextMessage(text);
        }

        short closeCode() throws Exception {
            return closed.get(10, TimeUnit.SECONDS);
        }
    }

    private Socket connect(String path) throws Exception {
        WebSocket socket = vertx.createWebSocketClient().connect(new WebSocketConnectOptions().setHost("localhost")
                .setPort(RestAssured.port).setURI(path)).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return new Socket(socket);
    }

    private static String start(String callId, String orgId, String token) {
        return "{\"event\":\"start\",\"sequenceNumber\":\"1\",\"streamSid\":\"MZ1\",\"start\":{\"streamSid\":\"MZ1\","
                + "\"accountSid\":\"AC1\",\"callSid\":\"CA1\",\"tracks\":[\"inbound\"],\"customParameters\":{"
                + "\"callId\":\"" + callId + "\",\"orgId\":\"" + orgId + "\""
                + (token == null ? "" : ",\"token\":\"" + token + "\"")
                + "},\"mediaFormat\":{\"encoding\":\"audio/x-mulaw\",\"sampleRate\":8000,\"channels\":1}}}";
    }

    private String token(UUID callId, String orgId) {
        return tokens.issue(orgId, callId, Instant.now().plusSeconds(60));
    }

    private int requestsAbout(UUID callId) {
        return wireMock.findAll(anyRequestedFor(urlMatching("/internal/call/" + callId + "/.*"))).size();
    }

    @Test
    void aStreamWithoutAValidTokenIsClosedAndTouchesNoCall() throws Exception {
        UUID callId = UUID.randomUUID();
        String valid = token(callId, TestKeys.ORG_A);
        String expired = tokens.issue(TestKeys.ORG_A, callId, Instant.now().minusSeconds(1));
        String forged = new MediaTokens(TestKeys.MEDIA_TOKEN_KEY + "-other").issue(TestKeys.ORG_A, callId,
                Instant.now().plusSeconds(60));
        String otherCall = token(UUID.randomUUID(), TestKeys.ORG_A);
        for (String start : List.of(start(callId.toString(), TestKeys.ORG_A, null),
                start(callId.toString(), TestKeys.ORG_A, expired),
                start(callId.toString(), TestKeys.ORG_A, forged),
                start(callId.toString(), TestKeys.ORG_A, otherCall),
                start(callId.toString(), TestKeys.ORG_B, valid),
                start(callId.toString(), TestKeys.ORG_A, valid.substring(0, valid.length() - 2)))) {
            Socket socket = connect("/media/stream");
            socket.send("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");
            socket.send(start);
            assertEquals(1008, socket.closeCode(), start);
        }
        assertEquals(0, requestsAbout(callId), "no refused stream reached call-service");
    }

    @Test
    void aStreamThatNeverStartsIsClosed() throws Exception {
        Socket socket = connect("/media/stream");
        socket.send("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");
        assertEquals(1008, socket.closeCode());
    }

    @Test
    void malformedMessagesCloseTheStream() throws Exception {
        for (String garbage : List.of("not json", "[1,2]", "{\"event\":\"start\"}")) {
            Socket socket = connect("/media/stream");
            socket.send(garbage);
            short code = socket.closeCode();
            assertTrue(code == 1007 || code == 1008, garbage + " closed with " + code);
        }
        Socket binary = connect("/media/stream");
        binary.socket.writeBinaryMessage(Buffer.buffer(new byte[160]));
        assertEquals(1007, binary.closeCode());
        Socket huge = connect("/media/stream");
        huge.send("{\"event\":\"media\",\"media\":{\"payload\":\"" + "A".repeat(200_000) + "\"}}");
        assertTrue(huge.closeCode() >= 1000, "an oversized frame closes the stream");
    }

    @Test
    void aCallThatCannotBeAttachedIsRefused() throws Exception {
        UUID callId = UUID.randomUUID();
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .willReturn(aResponse().withStatus(409).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":\"a voice runtime attached to the call already\",\"error\":\"Conflict\","
                                + "\"statusCode\":409}")));
        Socket socket = connect("/media/stream");
        socket.send(start(callId.toString(), TestKeys.ORG_A, token(callId, TestKeys.ORG_A)));
        assertEquals(1008, socket.closeCode());
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .withHeader("Authorization", com.github.tomakehurst.wiremock.client.WireMock.equalTo(TestKeys.bearer(TestKeys.INTERNAL_TOKEN)))
                .withHeader("X-Voice-Org-Id", com.github.tomakehurst.wiremock.client.WireMock.equalTo(TestKeys.ORG_A)));
        wireMock.verify(0, postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/events")));
    }

    private void attachable(UUID callId, String assistant) {
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"inboundPhoneCall\"},\"assistant\":"
                                + assistant + "}")));
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/events"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"recorded\":true,\"applied\":true,\"status\":\"ended\"}")));
    }

    @Test
    void aProviderTheRuntimeDoesNotSpeakEndsTheCallWithAReason() throws Exception {
        UUID callId = UUID.randomUUID();
        attachable(callId, "{\"transcriber\":{\"provider\":\"deepgram\"},\"model\":{\"provider\":\"openai\","
                + "\"model\":\"gpt-4o\"},\"voice\":{\"provider\":\"playht\",\"voiceId\":\"andrew\"}}");
        Socket socket = connect("/media/stream");
        socket.send(start(callId.toString(), TestKeys.ORG_A, token(callId, TestKeys.ORG_A)));
        assertEquals(1000, socket.closeCode());
        String events = "/internal/call/" + callId + "/runtime/events";
        wireMock.verify(postRequestedFor(urlEqualTo(events))
                .withRequestBody(containing("\"role\":\"system\""))
                .withRequestBody(containing("voice provider playht is not supported by this runtime")));
        wireMock.verify(postRequestedFor(urlEqualTo(events))
                .withRequestBody(containing("\"type\":\"ended\""))
                .withRequestBody(containing("\"endedReason\":\"assistant-error\"")));
    }

    @Test
    void anOrganisationWithoutAKeyForAProviderEndsTheCallNamingIt() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = "org-nokey-" + callId;
        attachable(callId, "{\"transcriber\":{\"provider\":\"deepgram\"},\"model\":{\"provider\":\"openai\","
                + "\"model\":\"gpt-4o\"},\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\"}}");
        StubbedCalls.noCredentials(wireMock, org);
        Socket socket = connect("/media/stream");
        socket.send(start(callId.toString(), org, tokens.issue(org, callId, Instant.now().plusSeconds(60))));
        assertEquals(1000, socket.closeCode());
        wireMock.verify(postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/events"))
                .withRequestBody(containing("the organisation has no deepgram credential for the transcriber provider deepgram")));
        wireMock.verify(postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/events"))
                .withRequestBody(containing("\"endedReason\":\"assistant-error\"")));
    }

    @Test
    void aWebCallThatCannotStartIsToldWhy() throws Exception {
        UUID callId = UUID.randomUUID();
        attachable(callId, "{\"transcriber\":{\"provider\":\"deepgram\"},\"model\":{\"provider\":\"openai\","
                + "\"model\":\"gpt-4o\"}}");
        // Handlers set before the upgrade, so that no message can come before them.
        io.vertx.core.http.ClientWebSocket socket = vertx.createWebSocketClient().webSocket();
        List<String> texts = new CopyOnWriteArrayList<>();
        CompletableFuture<Short> closed = new CompletableFuture<>();
        socket.textMessageHandler(texts::add).closeHandler(ignored -> closed.complete(socket.closeStatusCode()));
        socket.connect(new WebSocketConnectOptions().setHost("localhost").setPort(RestAssured.port)
                .setURI("/media/web/" + callId + "?token=" + token(callId, TestKeys.ORG_A)))
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals((short) 1000, closed.get(10, TimeUnit.SECONDS));
        assertEquals(1, texts.size(), "one message, the ending: " + texts);
        io.vertx.core.json.JsonObject ended = new io.vertx.core.json.JsonObject(texts.get(0));
        assertEquals("ended", ended.getString("type"));
        assertEquals("assistant-error", ended.getString("endedReason"));
        assertEquals("The call could not start: the assistant has no voice.", ended.getString("message"));
    }

    @Test
    void aWebCallNeedsItsToken() {
        UUID callId = UUID.randomUUID();
        String path = "/media/web/" + callId;
        RestAssured.given().when().get(path).then().statusCode(401)
                .body("statusCode", equalTo(401))
                .body("error", equalTo("Unauthorized"))
                .body("message", containsString("no media token"));
        RestAssured.given().queryParam("token", token(UUID.randomUUID(), TestKeys.ORG_A)).when().get(path)
                .then().statusCode(401).body("message", containsString("another call"));
        RestAssured.given().queryParam("token", tokens.issue(TestKeys.ORG_A, callId, Instant.now().minusSeconds(5)))
                .when().get(path).then().statusCode(401).body("message", containsString("expired"));
        RestAssured.given().queryParam("token", token(callId, TestKeys.ORG_A)).when().get(path)
                .then().statusCode(426).body("statusCode", equalTo(426));
        RestAssured.given().when().get("/media/stream").then().statusCode(426).body("statusCode", equalTo(426));
        assertEquals(0, requestsAbout(callId));
    }
}
