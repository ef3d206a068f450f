package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.auth.MediaTokens;
import dev.voiceplane.local.IngressRoutes.Route;
import dev.voiceplane.runtime.fake.RawWebSocket;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway's WebSocket path under hostile clients (issue 45), in front of a stand-in for the voice runtime that
 * behaves as it does where it matters here: it checks media tokens with the kit's {@link MediaTokens}, lets a call be
 * attached once (a second socket for it is refused with 1008, as call-service refuses a second attach), and closes a
 * frame over 64 KiB with 1009. Through the gateway: every refused handshake (methods, missing and odd headers) is
 * answered in the error shape and opens no socket to the runtime, so the genuine token it carried still opens its
 * call; an offered subprotocol is not selected and the call opens; tokens that cannot be valid are refused; frames
 * over the limit, fragmented and invalid UTF-8 text are closed with their code, relayed as such. A seeded set of
 * random handshakes (seed: {@code -Dvoice.fuzz.seed}, as the services' suites) holds the same rules.
 */
class GatewayMediaFuzzTest {

    private static final String TOKEN_KEY = "a-media-token-key-for-the-gateway-tests-only";
    private static final MediaTokens TOKENS = new MediaTokens(TOKEN_KEY);
    private static final String ORG = "org-a";
    private static final long DEFAULT_SEED = 20261202L;
    /** Attachments per call id, as the stand-in runtime counted them. */
    private static final Map<String, AtomicInteger> ATTACHED = new ConcurrentHashMap<>();
    /** Why each call ended at the stand-in runtime. */
    private static final Map<String, CompletableFuture<String>> ENDED = new ConcurrentHashMap<>();

    private static Vertx runtimeVertx;
    private static Gateway gateway;
    private static int port;

    @BeforeAll
    static void start() {
        runtimeVertx = Vertx.vertx();
        HttpServer runtime = runtimeVertx.createHttpServer().requestHandler(GatewayMediaFuzzTest::runtime)
                .listen(0, Gateway.HOST).toCompletionStage().toCompletableFuture().join();
        gateway = new Gateway(new IngressRoutes(List.of(new Route("/media", "voice-runtime"))));
        port = gateway.listen(0);
        gateway.forwardTo(Map.of("voice-runtime", runtime.actualPort()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        runtimeVertx.close().toCompletionStage().toCompletableFuture().join();
    }

    // ---- the stand-in runtime ----------------------------------------------------------------------------------

    /**
     * {@code /media/web/{callId}?token=…}: the token checked before the upgrade (401 in the error shape);
     * {@code /media/raw/{callId}?token=…} the same, but a frame over the limit drops the connection without a close
     * (as the runtime did before issue 45); {@code /media/stream}: the token of the {@code start} message.
     */
    private static void runtime(HttpServerRequest request) {
        String path = request.path();
        if (path.startsWith("/media/web/") || path.startsWith("/media/raw/")) {
            String callId = path.substring(path.lastIndexOf('/') + 1);
            Optional<String> refused = refusal(request.getParam("token"), callId);
            if (refused.isPresent()) {
                request.response().setStatusCode(401).putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("message", "a web call needs the token of its webCallUrl: "
                                + refused.get()).put("error", "Unauthorized").put("statusCode", 401).encode());
                return;
            }
            request.toWebSocket().onSuccess(socket -> call(socket, callId, path.startsWith("/media/raw/")));
            return;
        }
        if (path.equals("/media/stream")) {
            request.toWebSocket().onSuccess(socket -> socket.textMessageHandler(text -> {
                JsonObject message = object(text);
                JsonObject parameters = message == null ? null
                        : message.getJsonObject("start", new JsonObject()).getJsonObject("customParameters");
                if (message == null || !"start".equals(message.getString("event")) || parameters == null) {
                    socket.close((short) 1007, "protocol error");
                    return;
                }
                String callId = parameters.getString("callId");
                if (refusal(parameters.getString("token"), callId).isPresent()) {
                    socket.close((short) 1008, "refused");
                    return;
                }
                call(socket, callId, false);
            }));
            return;
        }
        request.response().setStatusCode(404).end();
    }

    private static Optional<String> refusal(String token, String callId) {
        try {
            MediaTokens.Grant grant = TOKENS.verify(token, Instant.now());
            return grant.callId().toString().equals(callId) ? Optional.empty() : Optional.of("for another call");
        } catch (MediaTokens.Refused refused) {
            return Optional.of(refused.getMessage());
        }
    }

    private static JsonObject object(String text) {
        try {
            return new JsonObject(text);
        } catch (DecodeException | ClassCastException e) {
            return null;
        }
    }

    /** A call attached (once): started, audio and control as a web call has them, and why it ended. */
    private static void call(ServerWebSocket socket, String callId, boolean dropsOversized) {
        CompletableFuture<String> ended = ENDED.computeIfAbsent(callId, id -> new CompletableFuture<>());
        if (ATTACHED.computeIfAbsent(callId, id -> new AtomicInteger()).incrementAndGet() > 1) {
            socket.writeTextMessage("{\"type\":\"error\",\"message\":\"the call cannot be joined\"}");
            socket.close((short) 1008, "refused");
            return;
        }
        socket.writeTextMessage("{\"type\":\"started\",\"callId\":\"" + callId + "\"}");
        socket.binaryMessageHandler(audio -> {
            if (audio.length() > 64 * 1024 || audio.length() % 2 != 0) {
                ended.complete("unknown-error");
                socket.close(audio.length() > 64 * 1024 ? (short) 1009 : (short) 1007, "protocol error");
            }
        });
        socket.textMessageHandler(text -> {
            JsonObject message = object(text);
            if (message == null) {
                ended.complete("unknown-error");
                socket.close((short) 1007, "protocol error");
            } else if ("hangup".equals(message.getString("type"))) {
                ended.complete("customer-ended-call");
                socket.close();
            }
        });
        if (!dropsOversized) {
            socket.exceptionHandler(failure -> {
                if (failure instanceof CorruptedWebSocketFrameException corrupt) {
                    ended.complete("unknown-error");
                    socket.close((short) corrupt.closeStatus().code(), "protocol error");
                }
            });
        }
        socket.closeHandler(closed -> ended.complete("closed " + socket.closeStatusCode()));
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    /** A call the stand-in runtime has not seen, and its genuine token. */
    private record Call(String id, String token) {
        String web() {
            return "/media/web/" + id + "?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
        }

        String start() {
            return "{\"event\":\"start\",\"streamSid\":\"MZ1\",\"start\":{\"streamSid\":\"MZ1\",\"customParameters\":"
                    + "{\"callId\":\"" + id + "\",\"orgId\":\"" + ORG + "\",\"token\":\"" + token + "\"}}}";
        }

        int attached() {
            AtomicInteger count = ATTACHED.get(id);
            return count == null ? 0 : count.get();
        }

        String ended() throws Exception {
            return ENDED.get(id).get(30, TimeUnit.SECONDS);
        }
    }

    private static Call newCall() {
        UUID id = UUID.randomUUID();
        return new Call(id.toString(), TOKENS.issue(ORG, id, Instant.now().plusSeconds(60)));
    }

    /** A token for the call sealed with the key over an expiry written by hand. */
    private static String sealed(String callId, String expiry) throws Exception {
        String body = "v1." + callId + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(ORG.getBytes(StandardCharsets.UTF_8)) + "." + expiry;
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(TOKEN_KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return body + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
    }

    /** The genuine token opens its call through the gateway: attached once, started. */
    private static void opensItsCall(Call call) throws IOException {
        try (RawWebSocket socket = RawWebSocket.open(port, RawWebSocket.handshake(call.web(), ""))) {
            assertEquals(101, socket.answer.status(), socket.answer.head());
            String first = socket.nextText();
            assertTrue(first != null && first.contains("\"started\""), "the call did not start: " + first);
            socket.text("{\"type\":\"hangup\"}");
            socket.ending();
        }
        assertEquals(1, call.attached(), "the call was attached before its genuine socket");
    }

    /** An answer in the error shape: exactly message, error and statusCode, the status its own. */
    private static void assertErrorShape(RawWebSocket.Answer answer, int status, String what) {
        assertEquals(status, answer.status(), what + "\n" + answer.head());
        JsonObject body = new JsonObject(answer.body());
        assertEquals(3, body.size(), answer.body());
        assertEquals(status, body.getInteger("statusCode"), answer.body());
        assertFalse(body.getString("message").isBlank(), answer.body());
        assertFalse(body.getString("error").isBlank(), answer.body());
        assertTrue(answer.header("Content-Type", "application/json"), answer.head());
    }

    private static String upgrade(String method, String target, String headers) {
        return method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + headers + "\r\n";
    }

    // ---- the tests ------------------------------------------------------------------------------------------

    @Test
    void aHandshakeThatCannotCompleteIsAnsweredInTheErrorShapeAndLeavesTheCallToItsToken() throws Exception {
        String key = "Sec-WebSocket-Key: " + RawWebSocket.KEY + "\r\n";
        String v13 = "Sec-WebSocket-Version: 13\r\n";
        record Case(String method, String headers, String body, int status, String header) {
        }
        List<Case> cases = new ArrayList<>();
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS")) {
            cases.add(new Case(method, key + v13 + "Content-Length: 0\r\n", "", 405, "Allow: GET"));
        }
        cases.add(new Case("POST", key + v13 + "Content-Length: 2\r\n", "{}", 405, "Allow: GET"));
        cases.add(new Case("GET", v13, "", 400, null));
        cases.add(new Case("GET", key, "", 400, "Sec-WebSocket-Version: 13"));
        cases.add(new Case("GET", "", "", 400, "Sec-WebSocket-Version: 13"));
        for (String version : List.of("8", "0", "14", "13, 8", "thirteen")) {
            cases.add(new Case("GET", key + "Sec-WebSocket-Version: " + version + "\r\n", "", 426,
                    "Sec-WebSocket-Version: 13"));
        }
        for (String odd : List.of("short", "!!!!!!!!!!!!!!!!!!!!!!==", "dGhlIHNhbXBsZSBub25jZXM=", "")) {
            cases.add(new Case("GET", "Sec-WebSocket-Key: " + odd + "\r\n" + v13, "", 400, null));
        }
        cases.add(new Case("GET", key + v13 + "Content-Length: 3\r\n", "abc", 400, null));
        cases.add(new Case("GET", key + v13 + "Transfer-Encoding: chunked\r\n", "0\r\n\r\n", 400, null));
        for (Case hostile : cases) {
            Call call = newCall();
            for (String target : List.of(call.web(), "/media/stream")) {
                String request = upgrade(hostile.method(), target, hostile.headers()) + hostile.body();
                try (RawWebSocket refused = RawWebSocket.open(port, request)) {
                    assertErrorShape(refused.answer, hostile.status(), request);
                    if (hostile.header() != null) {
                        String[] header = hostile.header().split(": ");
                        assertTrue(refused.answer.header(header[0], header[1]), hostile.header() + " in "
                                + refused.answer.head());
                    }
                    assertTrue(refused.answer.head().toLowerCase().contains(Gateway.REQUEST_ID.toLowerCase() + ":"),
                            refused.answer.head());
                }
            }
            assertEquals(0, call.attached(), "a refused handshake reached the runtime: " + hostile);
            opensItsCall(call);
        }
    }

    @Test
    void anOfferedSubprotocolIsNotSelectedAndTheCallOpens() throws Exception {
        for (String offered : List.of("audio", "audio, audio.pcm16", "x".repeat(200), "", "audio,,; q=1")) {
            Call call = newCall();
            try (RawWebSocket socket = RawWebSocket.open(port, RawWebSocket.handshake(call.web(),
                    "Sec-WebSocket-Protocol: " + offered + "\r\n"))) {
                assertEquals(101, socket.answer.status(), offered + ": " + socket.answer.head() + socket.answer.body());
                assertFalse(socket.answer.head().toLowerCase().contains("sec-websocket-protocol"), socket.answer.head());
                String first = socket.nextText();
                assertTrue(first != null && first.contains("\"started\""), offered + ": " + first);
            }
            assertEquals(1, call.attached());
        }
    }

    @Test
    void tokensThatCannotBeValidAreRefusedAndTheGenuineOneStillOpensTheCall() throws Exception {
        Call call = newCall();
        UUID other = UUID.randomUUID();
        List<String> hostile = List.of(
                sealed(call.id(), Long.toString(Long.MAX_VALUE)),
                sealed(call.id(), Long.toString(Long.MIN_VALUE)),
                sealed(call.id(), "-1"),
                sealed(call.id(), "+99999999999"),
                sealed(call.id(), "1e10"),
                "",
                "v1",
                "x".repeat(600),
                call.token().substring(0, call.token().length() - 2),
                call.token() + ".x",
                TOKENS.issue(ORG, other, Instant.now().plusSeconds(60)),
                TOKENS.issue(ORG, UUID.fromString(call.id()), Instant.now().minusSeconds(5)),
                new MediaTokens(TOKEN_KEY + "!").issue(ORG, UUID.fromString(call.id()), Instant.now().plusSeconds(60)));
        for (String token : hostile) {
            String target = "/media/web/" + call.id() + "?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
            try (RawWebSocket refused = RawWebSocket.open(port, RawWebSocket.handshake(target, ""))) {
                assertErrorShape(refused.answer, 401, token.length() > 80 ? token.substring(0, 80) : token);
            }
            try (RawWebSocket stream = RawWebSocket.open(port, RawWebSocket.handshake("/media/stream", ""))) {
                assertEquals(101, stream.answer.status());
                stream.text(new Call(call.id(), token).start());
                RawWebSocket.Ending ending = stream.ending();
                assertEquals(1008, ending.code(), ending.toString());
            }
        }
        assertEquals(0, call.attached());
        opensItsCall(call);
    }

    @Test
    void framesOverTheLimitCloseWith1009RelayedByTheGatewayAndTheCallEnds() throws Exception {
        // One frame of 70 KB, and one message of 80 KB in two frames of 40 KB: the runtime closes with 1009.
        for (boolean fragmented : new boolean[] {false, true}) {
            Call call = newCall();
            try (RawWebSocket socket = RawWebSocket.open(port, RawWebSocket.handshake(call.web(), ""))) {
                assertTrue(socket.nextText().contains("\"started\""));
                if (fragmented) {
                    socket.fragments(false, new byte[40_000], new byte[40_000]);
                } else {
                    socket.binary(new byte[70_000]);
                }
                RawWebSocket.Ending ending = socket.ending();
                assertEquals(1009, ending.code(), ending.toString());
            }
            assertEquals("unknown-error", call.ended());
        }
        // A runtime that drops the connection without a close: relayed as 1011, never as a normal close (1000).
        Call dropped = newCall();
        try (RawWebSocket socket = RawWebSocket.open(port, RawWebSocket.handshake(
                dropped.web().replace("/media/web/", "/media/raw/"), ""))) {
            assertTrue(socket.nextText().contains("\"started\""));
            socket.binary(new byte[70_000]);
            RawWebSocket.Ending ending = socket.ending();
            assertEquals(1011, ending.code(), ending.toString());
        }
        // A frame over the gateway's own limit (16 MiB): the gateway closes both sides with 1009.
        Call huge = newCall();
        try (RawWebSocket socket = RawWebSocket.open(port, RawWebSocket.handshake(huge.web(), ""))) {
            assertTrue(socket.nextText().contains("\"started\""));
            // Only the frame's head and its first bytes are sent: the length it declares is what is refused.
            socket.oversizedFrame(16L * 1024 * 1024 + 1, 1000);
            RawWebSocket.Ending ending = socket.ending();
            assertEquals(1009, ending.code(), ending.toString());
        }
        assertEquals("closed 1009", huge.ended());
    }

    @Test
    void fragmentedAndInvalidUtf8TextPassThroughAsTheyCame() throws Exception {
        // A stream's start in three fragments: the runtime gets one message and opens the call.
        Call streamed = newCall();
        byte[] start = streamed.start().getBytes(StandardCharsets.UTF_8);
        try (RawWebSocket stream = RawWebSocket.open(port, RawWebSocket.handshake("/media/stream", ""))) {
            stream.fragments(true, java.util.Arrays.copyOfRange(start, 0, 30),
                    java.util.Arrays.copyOfRange(start, 30, 90), java.util.Arrays.copyOfRange(start, 90, start.length));
            String first = stream.nextText();
            assertTrue(first != null && first.contains("\"started\""), String.valueOf(first));
            // Bytes that are not UTF-8: not JSON to the runtime, which closes with 1007.
            stream.textBytes(new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF});
            RawWebSocket.Ending ending = stream.ending();
            assertEquals(1007, ending.code(), ending.toString());
        }
        assertEquals("unknown-error", streamed.ended());
    }

    @Test
    void seededHostileHandshakesNeverGetA5xxAndNeverTouchACallTheyDoNotOpen() throws Exception {
        long seed = seed();
        Random random = new Random(seed);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            Call call = newCall();
            String method = List.of("GET", "GET", "GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH").get(random.nextInt(8));
            String token = switch (random.nextInt(5)) {
                case 0 -> call.token();
                case 1 -> sealed(call.id(), random.nextBoolean() ? Long.toString(Long.MAX_VALUE) : Long.toString(Long.MIN_VALUE));
                case 2 -> "x".repeat(random.nextInt(3000));
                case 3 -> TOKENS.issue(ORG, UUID.randomUUID(), Instant.now().plusSeconds(60));
                default -> call.token().substring(0, random.nextInt(call.token().length()));
            };
            StringBuilder headers = new StringBuilder();
            if (random.nextInt(4) != 0) {
                headers.append("Sec-WebSocket-Key: ").append(List.of(RawWebSocket.KEY, "short", "", "AAAAAAAAAAAAAAAAAAAAAA==")
                        .get(random.nextInt(4))).append("\r\n");
            }
            if (random.nextInt(4) != 0) {
                headers.append("Sec-WebSocket-Version: ").append(List.of("13", "13", "8", "", "13, 8").get(random.nextInt(5)))
                        .append("\r\n");
            }
            if (random.nextBoolean()) {
                headers.append("Sec-WebSocket-Protocol: ").append(List.of("audio", "audio.pcm16, audio", "v1.x", "")
                        .get(random.nextInt(4))).append("\r\n");
            }
            if (random.nextInt(5) == 0) {
                headers.append("Content-Length: 2\r\n");
            }
            String target = random.nextBoolean() ? "/media/web/" + call.id() + "?token="
                    + URLEncoder.encode(token, StandardCharsets.UTF_8) : "/media/stream";
            String request = upgrade(method, target, headers.toString()) + (headers.indexOf("Content-Length") >= 0 ? "{}" : "");
            boolean opened;
            try (RawWebSocket socket = RawWebSocket.open(port, request)) {
                int status = socket.answer.status();
                opened = status == 101;
                if (status >= 500 || (!opened && status < 400)) {
                    failures.add("case " + i + ": " + status + " for " + request.replace("\r\n", " | "));
                    continue;
                }
                if (!opened) {
                    JsonObject body = new JsonObject(socket.answer.body());
                    if (body.size() != 3 || body.getInteger("statusCode") != status) {
                        failures.add("case " + i + ": not in the error shape: " + socket.answer.body());
                    }
                } else {
                    if (target.equals("/media/stream")) {
                        socket.text(new Call(call.id(), token).start());
                    }
                    socket.text("{\"type\":\"hangup\"}");
                    socket.ending();
                }
            }
            if (!opened && call.attached() != 0) {
                failures.add("case " + i + ": a refused handshake attached its call: " + request.replace("\r\n", " | "));
            }
            if (call.attached() == 0) {
                opensItsCall(call);
            }
        }
        assertTrue(failures.isEmpty(), "seed " + seed + ":\n" + String.join("\n", failures.subList(0,
                Math.min(8, failures.size()))));
    }

    private static long seed() {
        String seed = System.getProperty("voice.fuzz.seed");
        if (seed == null || seed.isBlank()) {
            return DEFAULT_SEED;
        }
        return "random".equals(seed) ? System.nanoTime() : Long.parseLong(seed);
    }
}
