package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import dev.voiceplane.runtime.fake.RawWebSocket;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.http.WebSocketFrame;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The media sockets under hostile handshakes and frames (issue 45): a token that cannot be valid is refused at once
 * (401 in the error shape on a web call's upgrade, close 1008 on a stream's {@code start}); a request that cannot
 * complete a WebSocket handshake is answered in the error shape and touches no call, so the genuine token it
 * carried still opens its call; a frame or message over 64 KiB closes the socket with 1009 and ends the call with
 * a reason; a caller's DTMF is counted, not lost unseen.
 */
@QuarkusTest
class MediaHandshakeTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";
    private static Vertx vertx;

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

    /** A token for the call, sealed with the deployment's key over an expiry written by hand. */
    static String sealed(UUID callId, String orgId, String expiry) throws Exception {
        String body = "v1." + callId + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(orgId.getBytes(StandardCharsets.UTF_8)) + "." + expiry;
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(TestKeys.MEDIA_TOKEN_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return body + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
    }

    /** A counter of the runtime's metrics, 0 while it has never counted. */
    static double counter(String name, String tag) {
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{[^}]*" + Pattern.quote(tag) + "[^}]*\\} (\\S+)$",
                Pattern.MULTILINE);
        Matcher found = line.matcher(RestAssured.get("/q/metrics").asString());
        return found.find() ? Double.parseDouble(found.group(1)) : 0;
    }

    private int requestsAbout(UUID callId) {
        return wireMock.findAll(anyRequestedFor(urlMatching("/internal/call/" + callId + "/.*"))).size();
    }

    /** One client socket: its text messages and how it was closed (null: the connection ended without a close). */
    static final class Client {
        final WebSocket socket;
        final List<String> texts = new CopyOnWriteArrayList<>();
        final CompletableFuture<Short> closed = new CompletableFuture<>();

        Client(WebSocket socket) {
            this.socket = socket;
            socket.textMessageHandler(texts::add);
            socket.closeHandler(ignored -> closed.complete(socket.closeStatusCode()));
        }

        Short closeCode() throws Exception {
            return closed.get(10, TimeUnit.SECONDS);
        }
    }

    private static Client connect(String uri) throws Exception {
        WebSocket socket = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxFrameSize(1 << 20)
                        .setMaxMessageSize(4 << 20))
                .connect(new WebSocketConnectOptions().setHost("localhost").setPort(RestAssured.port).setURI(uri))
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return new Client(socket);
    }

    /** A request written as it is on the wire; the answer's head and body. */
    record Answer(int status, String head, String body) {
        JsonNode json() throws Exception {
            return new ObjectMapper().readTree(body);
        }
    }

    static Answer raw(int port, String request) throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            while (true) {
                String sofar = read.toString(StandardCharsets.ISO_8859_1);
                int end = sofar.indexOf("\r\n\r\n");
                if (end >= 0) {
                    Matcher length = Pattern.compile("(?im)^content-length:\\s*(\\d+)").matcher(sofar.substring(0, end));
                    int want = length.find() ? Integer.parseInt(length.group(1)) : 0;
                    if (sofar.length() - end - 4 >= want) {
                        return new Answer(Integer.parseInt(sofar.substring(9, 12)), sofar.substring(0, end),
                                sofar.substring(end + 4, end + 4 + want));
                    }
                }
                int n = in.read(buffer);
                if (n < 0) {
                    throw new AssertionError("the connection ended before a whole answer: " + sofar);
                }
                read.write(buffer, 0, n);
            }
        }
    }

    /** Handshakes that ask for an upgrade but cannot complete one, each with what it must be answered. */
    static List<Object[]> brokenHandshakes(String target) {
        String upgrade = "Host: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n";
        return List.of(
                new Object[] {"POST " + target + " HTTP/1.1\r\n" + upgrade + "Sec-WebSocket-Key: " + KEY
                        + "\r\nSec-WebSocket-Version: 13\r\nContent-Length: 0\r\n\r\n", 405, "Allow: GET"},
                new Object[] {"PUT " + target + " HTTP/1.1\r\n" + upgrade + "Sec-WebSocket-Key: " + KEY
                        + "\r\nSec-WebSocket-Version: 13\r\nContent-Length: 2\r\n\r\n{}", 405, "Allow: GET"},
                new Object[] {"GET " + target + " HTTP/1.1\r\n" + upgrade + "Sec-WebSocket-Version: 13\r\n\r\n", 400,
                        null},
                new Object[] {"GET " + target + " HTTP/1.1\r\n" + upgrade + "Sec-WebSocket-Key: " + KEY + "\r\n\r\n",
                        400, "Sec-WebSocket-Version: 13"},
                new Object[] {"GET " + target + " HTTP/1.1\r\n" + upgrade + "Sec-WebSocket-Key: " + KEY
                        + "\r\nSec-WebSocket-Version: 8\r\n\r\n", 426, "Sec-WebSocket-Version: 13"},
                new Object[] {"GET " + target + " HTTP/1.1\r\n" + upgrade + "Sec-WebSocket-Key: short\r\n"
                        + "Sec-WebSocket-Version: 13\r\n\r\n", 400, null},
                new Object[] {"GET " + target + " HTTP/1.1\r\n" + upgrade + "Sec-WebSocket-Key: " + KEY
                        + "\r\nSec-WebSocket-Version: 13\r\nContent-Length: 3\r\n\r\nabc", 400, null});
    }

    static void assertErrorShape(Answer answer, int status, String header, String what) throws Exception {
        assertEquals(status, answer.status(), what + "\n" + answer.head());
        JsonNode body = answer.json();
        assertEquals(3, body.size(), answer.body());
        assertEquals(status, body.path("statusCode").asInt(), answer.body());
        assertTrue(body.path("message").isTextual() && !body.path("message").asText().isEmpty(), answer.body());
        assertTrue(body.path("error").isTextual(), answer.body());
        if (header != null) {
            assertTrue(answer.head().toLowerCase().contains(header.toLowerCase()), header + " in " + answer.head());
        }
    }

    @Test
    void aTokenWhoseExpiryIsNoTimeIsRefusedAtOnce() throws Exception {
        UUID callId = UUID.randomUUID();
        for (String expiry : new String[] {Long.toString(Long.MAX_VALUE), Long.toString(Long.MIN_VALUE)}) {
            String token = sealed(callId, TestKeys.ORG_A, expiry);
            RestAssured.given().queryParam("token", token).when().get("/media/web/" + callId).then().statusCode(401)
                    .body("statusCode", org.hamcrest.Matchers.equalTo(401))
                    .body("error", org.hamcrest.Matchers.equalTo("Unauthorized"))
                    .body("message", org.hamcrest.Matchers.containsString("malformed media token"));

            double tokenRefusals = counter("voice_runtime_media_refused_total", "reason=\"token\"");
            double startTimeouts = counter("voice_runtime_media_refused_total", "reason=\"start\"");
            Client stream = connect("/media/stream");
            stream.socket.writeTextMessage("{\"event\":\"start\",\"streamSid\":\"MZ1\",\"start\":{\"streamSid\":\"MZ1\","
                    + "\"customParameters\":{\"callId\":\"" + callId + "\",\"orgId\":\"" + TestKeys.ORG_A
                    + "\",\"token\":\"" + token + "\"}}}");
            assertEquals((short) 1008, stream.closeCode());
            // Refused for its token when the start came, not left open until the start timeout closed it.
            assertEquals(tokenRefusals + 1, counter("voice_runtime_media_refused_total", "reason=\"token\""), expiry);
            assertEquals(startTimeouts, counter("voice_runtime_media_refused_total", "reason=\"start\""), expiry);
        }
        assertEquals(0, requestsAbout(callId));
    }

    @Test
    void aHandshakeThatCannotCompleteIsAnsweredInTheErrorShapeAndTouchesNoCall() throws Exception {
        StubbedCalls calls = new StubbedCalls(wireMock);
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessageMode\":\"assistant-waits-for-user\""));
        String token = calls.token(callId, org);
        String web = "/media/web/" + callId + "?token=" + token;
        for (String target : List.of(web, "/media/stream")) {
            for (Object[] broken : brokenHandshakes(target)) {
                assertErrorShape(raw(RestAssured.port, (String) broken[0]), (int) broken[1], (String) broken[2],
                        (String) broken[0]);
            }
            // A GET that asks for no upgrade at all.
            assertErrorShape(raw(RestAssured.port, "GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n"), 426, null,
                    target);
        }
        assertEquals(0, requestsAbout(callId), "a refused handshake touched the call");
        // The genuine token those handshakes carried still opens its call.
        Client client = connect(web);
        Eventually.until("the call to start", BOUND, () -> client.texts.stream().anyMatch(t -> t.contains("\"started\"")));
        client.socket.close();
        assertEquals((short) 1000, client.closeCode());
    }

    @Test
    void aWebCallFrameOrMessageOver64KiBClosesWith1009AndEndsTheCall() throws Exception {
        StubbedCalls calls = new StubbedCalls(wireMock);
        for (boolean fragmented : new boolean[] {false, true}) {
            UUID callId = UUID.randomUUID();
            String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessageMode\":\"assistant-waits-for-user\""));
            Client client = connect("/media/web/" + callId + "?token=" + calls.token(callId, org));
            Eventually.until("the call to start", BOUND,
                    () -> client.texts.stream().anyMatch(t -> t.contains("\"started\"")));
            if (fragmented) {
                // Two frames of 40 KB, each within the frame limit: one message of 80 KB.
                client.socket.writeFrame(WebSocketFrame.binaryFrame(Buffer.buffer(new byte[40_000]), false));
                client.socket.writeFrame(WebSocketFrame.continuationFrame(Buffer.buffer(new byte[40_000]), true));
            } else {
                client.socket.writeBinaryMessage(Buffer.buffer(new byte[70_000]));
            }
            assertEquals((short) 1009, client.closeCode(), fragmented ? "fragmented" : "one frame");
            Eventually.until("the call's end", BOUND, () -> calls.ended(callId) != null);
            JsonNode ended = calls.ended(callId);
            assertEquals("unknown-error", ended.path("endedReason").asText(), ended.toString());
        }
    }

    @Test
    void aStreamFrameOver64KiBClosesWith1009AndEndsTheCall() throws Exception {
        StubbedCalls calls = new StubbedCalls(wireMock);
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, StubbedCalls.assistant(",\"firstMessageMode\":\"assistant-waits-for-user\""));
        Client stream = connect("/media/stream");
        stream.socket.writeTextMessage("{\"event\":\"start\",\"streamSid\":\"MZ1\",\"start\":{\"streamSid\":\"MZ1\","
                + "\"customParameters\":{\"callId\":\"" + callId + "\",\"orgId\":\"" + org + "\",\"token\":\""
                + calls.token(callId, org) + "\"}}}");
        Eventually.until("the call to start", BOUND, () -> !calls.events(callId).isEmpty());
        stream.socket.writeBinaryMessage(Buffer.buffer(new byte[70_000]));
        assertEquals((short) 1009, stream.closeCode());
        Eventually.until("the call's end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("unknown-error", calls.ended(callId).path("endedReason").asText());
    }

    @Test
    void textIsReadAsUtf8WhateverItsFragmentsAndTextThatIsNotClosesWith1007() throws Exception {
        StubbedCalls calls = new StubbedCalls(wireMock);
        String waits = StubbedCalls.assistant(",\"firstMessageMode\":\"assistant-waits-for-user\"");
        // A stream's start in three fragments, the token split across them: admitted.
        UUID streamed = UUID.randomUUID();
        String streamOrg = calls.call(streamed, waits);
        byte[] start = ("{\"event\":\"start\",\"streamSid\":\"MZ1\",\"start\":{\"streamSid\":\"MZ1\","
                + "\"customParameters\":{\"callId\":\"" + streamed + "\",\"orgId\":\"" + streamOrg + "\",\"token\":\""
                + calls.token(streamed, streamOrg) + "\"}}}").getBytes(StandardCharsets.UTF_8);
        try (RawWebSocket stream = RawWebSocket.open(RestAssured.port, RawWebSocket.handshake("/media/stream", ""))) {
            assertEquals(101, stream.answer.status());
            stream.fragments(true, java.util.Arrays.copyOfRange(start, 0, 40),
                    java.util.Arrays.copyOfRange(start, 40, start.length - 30),
                    java.util.Arrays.copyOfRange(start, start.length - 30, start.length));
            Eventually.until("the fragmented start to admit the call", BOUND, () -> !calls.events(streamed).isEmpty());
            // Then bytes that are not UTF-8 in a text frame: the stream is closed with 1007, the call ends.
            stream.textBytes(new byte[] {'{', '"', 'e', '"', ':', '"', (byte) 0xC3, 0x28, '"', '}'});
            RawWebSocket.Ending ending = stream.ending();
            assertEquals(1007, ending.code(), ending.toString());
        }
        Eventually.until("the stream's call to end", BOUND, () -> calls.ended(streamed) != null);
        assertEquals("unknown-error", calls.ended(streamed).path("endedReason").asText());

        // A web call: a mark whose é is split between two fragments is read like any other, then the caller hangs up.
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, waits);
        try (RawWebSocket web = RawWebSocket.open(RestAssured.port,
                RawWebSocket.handshake("/media/web/" + callId + "?token=" + calls.token(callId, org), ""))) {
            assertEquals(101, web.answer.status());
            assertTrue(web.nextText().contains("\"started\""));
            byte[] mark = "{\"type\":\"mark\",\"name\":\"caf\u00e9\"}".getBytes(StandardCharsets.UTF_8);
            int split = "{\"type\":\"mark\",\"name\":\"caf".length() + 1;
            web.fragments(true, java.util.Arrays.copyOfRange(mark, 0, split),
                    java.util.Arrays.copyOfRange(mark, split, mark.length));
            web.text("{\"type\":\"hangup\"}");
            RawWebSocket.Ending ending = web.ending();
            assertEquals(1000, ending.code(), ending.toString());
        }
        Eventually.until("the call's end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("customer-ended-call", calls.ended(callId).path("endedReason").asText());
    }

    @Test
    void aCallersDtmfIsCountedNotLostUnseen() throws Exception {
        double twilio = counter("voice_runtime_caller_dtmf_dropped_total", "transport=\"twilio\"");
        double vonage = counter("voice_runtime_caller_dtmf_dropped_total", "transport=\"vonage\"");
        Client stream = connect("/media/stream");
        stream.socket.writeTextMessage("{\"event\":\"dtmf\",\"streamSid\":\"MZ1\",\"dtmf\":{\"track\":\"inbound_track\","
                + "\"digit\":\"7\"}}");
        stream.socket.writeTextMessage("{\"event\":\"dtmf\",\"streamSid\":\"MZ1\",\"dtmf\":{\"digit\":\"#\"}}");
        Eventually.until("two Twilio digits counted", BOUND,
                () -> counter("voice_runtime_caller_dtmf_dropped_total", "transport=\"twilio\"") == twilio + 2);
        stream.socket.close();
        Client vonageStream = connect("/media/stream");
        vonageStream.socket.writeTextMessage("{\"event\":\"websocket:dtmf\",\"digit\":\"1\",\"duration\":260}");
        Eventually.until("a Vonage digit counted", BOUND,
                () -> counter("voice_runtime_caller_dtmf_dropped_total", "transport=\"vonage\"") == vonage + 1);
        vonageStream.socket.close();
    }
}
