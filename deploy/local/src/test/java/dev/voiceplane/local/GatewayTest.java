package dev.voiceplane.local;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.local.IngressRoutes.Route;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The gateway in front of a stub service: what it forwards, what it answers itself. */
class GatewayTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final AtomicInteger STUB_REQUESTS = new AtomicInteger();

    private static Vertx stubVertx;
    private static Gateway gateway;
    private static int port;

    @BeforeAll
    static void start() throws IOException {
        stubVertx = Vertx.vertx();
        HttpServer stub = stubVertx.createHttpServer(new io.vertx.core.http.HttpServerOptions()
                        .setMaxWebSocketFrameSize(1024 * 1024).setMaxWebSocketMessageSize(1024 * 1024))
                .requestHandler(GatewayTest::stub)
                .webSocketHandler(GatewayTest::webSocketStub)
                .listen(0, Gateway.HOST).toCompletionStage().toCompletableFuture().join();
        gateway = new Gateway(new IngressRoutes(List.of(
                new Route("/echo", "echo-service"),
                new Route("/down", "down-service"),
                new Route("/gone", "gone-service"))));
        port = gateway.listen(0);
        gateway.forwardTo(Map.of("echo-service", stub.actualPort(), "gone-service", closedPort()));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        stubVertx.close().toCompletionStage().toCompletableFuture().join();
    }

    /** /echo/body answers 201 with the request body; /echo/empty answers 204; anything else describes the request. */
    private static void stub(HttpServerRequest request) {
        STUB_REQUESTS.incrementAndGet();
        request.response().putHeader(Gateway.REQUEST_ID, request.getHeader(Gateway.REQUEST_ID));
        switch (request.path()) {
            case "/echo/body" -> request.body().onSuccess(body -> request.response()
                    .setStatusCode(201).putHeader("X-Stub", "body").end(body));
            case "/echo/empty" -> request.response().setStatusCode(204).end();
            default -> {
                JsonObject headers = new JsonObject();
                request.headers().forEach(header -> headers.put(header.getKey().toLowerCase(), header.getValue()));
                request.response().putHeader("Content-Type", "application/json").end(new JsonObject()
                        .put("method", request.method().name())
                        .put("uri", request.uri())
                        .put("headers", headers)
                        .encode());
            }
        }
    }

    /**
     * /echo/ws: says which request id and X-Custom header it got, then echoes every message; "close" makes it close
     * with code 4001. Anything else is refused with a 401 (as a service refuses a missing key).
     */
    private static void webSocketStub(ServerWebSocket socket) {
        if (!socket.path().equals("/echo/ws")) {
            socket.reject(401);
            return;
        }
        socket.writeTextMessage("hello " + socket.headers().get("X-Custom") + " " + socket.headers().get(Gateway.REQUEST_ID));
        socket.textMessageHandler(text -> {
            if (text.equals("close")) {
                socket.close((short) 4001, "bye");
            } else {
                socket.writeTextMessage(text);
            }
        });
        socket.binaryMessageHandler(socket::writeBinaryMessage);
    }

    @Test
    void proxiesWebSocketsBothWaysWithHeadersAndCloseCodes() throws Exception {
        BlockingQueue<Object> received = new LinkedBlockingQueue<>();
        WebSocket socket = CLIENT.newWebSocketBuilder()
                .header("X-Custom", "kept")
                .header(Gateway.REQUEST_ID, "ws-1")
                .buildAsync(URI.create("ws://localhost:" + port + "/echo/ws"), collector(received))
                .get(30, TimeUnit.SECONDS);

        assertEquals("hello kept ws-1", next(received));
        socket.sendText("ping one", true).get(30, TimeUnit.SECONDS);
        assertEquals("ping one", next(received));
        byte[] payload = new byte[70_000];
        new Random(3).nextBytes(payload);
        socket.sendBinary(java.nio.ByteBuffer.wrap(payload), true).get(30, TimeUnit.SECONDS);
        Object echoed = next(received);
        assertTrue(echoed instanceof byte[], "expected the binary message back, got " + echoed);
        assertArrayEquals(payload, (byte[]) echoed);
        socket.sendText("close", true).get(30, TimeUnit.SECONDS);
        assertEquals("closed 4001 bye", next(received));
    }

    @Test
    void aWebSocketToAServiceThatIsNotRunningOrRefusesIsAnsweredOverHttp() {
        java.util.concurrent.ExecutionException down = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class, () -> CLIENT.newWebSocketBuilder()
                        .buildAsync(URI.create("ws://localhost:" + port + "/down/ws"), collector(new LinkedBlockingQueue<>()))
                        .get(30, TimeUnit.SECONDS));
        assertTrue(down.getCause() instanceof java.net.http.WebSocketHandshakeException, down.toString());
        assertEquals(503, ((java.net.http.WebSocketHandshakeException) down.getCause()).getResponse().statusCode());

        java.util.concurrent.ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class, () -> CLIENT.newWebSocketBuilder()
                        .buildAsync(URI.create("ws://localhost:" + port + "/echo/other"), collector(new LinkedBlockingQueue<>()))
                        .get(30, TimeUnit.SECONDS));
        assertEquals(401, ((java.net.http.WebSocketHandshakeException) refused.getCause()).getResponse().statusCode());
    }

    @Test
    void aTargetThatIsNotAUriIs400InTheErrorShape() throws Exception {
        int before = STUB_REQUESTS.get();
        for (String target : List.of("/echo/%u0000", "/echo/%zz", "/echo/%", "/echo/{x}", "/echo?limit=%", "/echo/a b")) {
            RawAnswer answer = raw("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals(400, answer.status(), target);
            assertEquals(400, new JsonObject(answer.body()).getInteger("statusCode"), target);
            assertEquals("Bad Request", new JsonObject(answer.body()).getString("error"), target);
        }
        assertEquals(before, STUB_REQUESTS.get());
    }

    @Test
    void aRequestLineOrHeaderBlockOverTheLimitIsAnsweredInTheErrorShape() throws Exception {
        RawAnswer header = raw("GET /echo HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(9000) + "\r\n\r\n");
        assertEquals(431, header.status());
        assertEquals(431, new JsonObject(header.body()).getInteger("statusCode"));
        for (String version : List.of("HTTP/1.1", "HTTP/1.0")) {
            RawAnswer line = raw("GET /echo/" + "a".repeat(5000) + " " + version + "\r\nHost: localhost\r\n\r\n");
            assertEquals(414, line.status(), version);
            assertEquals(new JsonObject().put("message", "request line is too long").put("error", "Request-URI Too Long")
                    .put("statusCode", 414), new JsonObject(line.body()));
        }
    }

    private record RawAnswer(int status, String body) {
    }

    /** One request over a plain socket, for what HTTP clients refuse to send; read until the gateway closes. */
    private static RawAnswer raw(String request) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")
                    .getBytes(US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            int status = Integer.parseInt(answer.split(" ", 3)[1]);
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            return new RawAnswer(status, body);
        }
    }

    private static WebSocket.Listener collector(BlockingQueue<Object> received) {
        return new WebSocket.Listener() {
            private final StringBuilder text = new StringBuilder();
            private final java.io.ByteArrayOutputStream binary = new java.io.ByteArrayOutputStream();

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                text.append(data);
                if (last) {
                    received.add(text.toString());
                    text.setLength(0);
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onBinary(WebSocket webSocket, java.nio.ByteBuffer data, boolean last) {
                byte[] bytes = new byte[data.remaining()];
                data.get(bytes);
                binary.writeBytes(bytes);
                if (last) {
                    received.add(binary.toByteArray());
                    binary.reset();
                }
                webSocket.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                received.add("closed " + statusCode + " " + reason);
                return null;
            }
        };
    }

    private static Object next(BlockingQueue<Object> received) throws InterruptedException {
        Object message = received.poll(30, TimeUnit.SECONDS);
        assertTrue(message != null, "no WebSocket message within 30 s");
        return message;
    }

    @Test
    void forwardsMethodPathQueryAndHeadersAndAddsTheForwardedHeaders() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/echo/abc?limit=10&name=a%20b"))
                .header("X-Custom", "kept")
                .header("X-Forwarded-For", "203.0.113.7")
                .method("PATCH", HttpRequest.BodyPublishers.noBody()));

        assertEquals(200, response.statusCode());
        JsonObject seen = new JsonObject(response.body());
        assertEquals("PATCH", seen.getString("method"));
        assertEquals("/echo/abc?limit=10&name=a%20b", seen.getString("uri"));
        JsonObject headers = seen.getJsonObject("headers");
        assertEquals("kept", headers.getString("x-custom"));
        assertEquals("203.0.113.7, 127.0.0.1", headers.getString("x-forwarded-for"));
        assertEquals("http", headers.getString("x-forwarded-proto"));
        assertEquals("localhost:" + port, headers.getString("x-forwarded-host"));
        assertEquals(headers.getString("x-request-id"), response.headers().firstValue(Gateway.REQUEST_ID).orElseThrow());
    }

    @Test
    void keepsTheCallersRequestId() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/echo")).header(Gateway.REQUEST_ID, "req-42"));

        assertEquals("req-42", new JsonObject(response.body()).getJsonObject("headers").getString("x-request-id"));
        assertEquals("req-42", response.headers().firstValue(Gateway.REQUEST_ID).orElseThrow());
    }

    @Test
    void replacesARequestIdTheServicesWouldNotAccept() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/echo")).header(Gateway.REQUEST_ID, "bad id <script>"));
        String id = response.headers().firstValue(Gateway.REQUEST_ID).orElseThrow();
        assertTrue(id.matches("[0-9a-f-]{36}"), id);
    }

    @Test
    void streamsLargeBodiesBothWays() throws Exception {
        byte[] payload = new byte[4 * 1024 * 1024 + 17];
        new Random(7).nextBytes(payload);

        HttpResponse<byte[]> response = CLIENT.send(HttpRequest.newBuilder(uri("/echo/body"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(payload)).build(), HttpResponse.BodyHandlers.ofByteArray());

        assertEquals(201, response.statusCode());
        assertEquals("body", response.headers().firstValue("X-Stub").orElseThrow());
        assertArrayEquals(payload, response.body());
    }

    @Test
    void runsOnLinuxEpollWhereItLoads() {
        Assumptions.assumeTrue(System.getProperty("os.name").startsWith("Linux")
                && System.getProperty("os.arch").matches("amd64|x86_64"));

        assertEquals("epoll", gateway.transport());
    }

    @Test
    void relaysSmallBodiesWholeBothWays() throws Exception {
        // API calls have small bodies with a Content-Length: the gateway reads them whole rather than piping them.
        for (int size : new int[] {1, 1024, 256 * 1024}) {
            byte[] payload = new byte[size];
            new Random(size).nextBytes(payload);

            HttpResponse<byte[]> response = CLIENT.send(HttpRequest.newBuilder(uri("/echo/body"))
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(payload)).build(), HttpResponse.BodyHandlers.ofByteArray());

            assertEquals(201, response.statusCode());
            assertEquals(String.valueOf(size), response.headers().firstValue("Content-Length").orElseThrow());
            assertArrayEquals(payload, response.body());
        }
    }

    @Test
    void answersExpectContinueItselfSoTheClientSendsItsBody() throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), US_ASCII));
            out.write(("POST /echo/body HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n"
                    + "Expect: 100-continue\r\n\r\n").getBytes(US_ASCII));
            out.flush();

            assertEquals("HTTP/1.1 100 Continue", in.readLine());
            assertEquals("", in.readLine());
            out.write("{}".getBytes(US_ASCII));
            out.flush();
            assertEquals("HTTP/1.1 201 Created", in.readLine());
        }
    }

    @Test
    void relaysAnAnswerWithoutBody() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/echo/empty")).DELETE());

        assertEquals(204, response.statusCode());
        assertEquals("", response.body());
    }

    @Test
    void answers404ForWhatTheIngressDoesNotRoute() throws Exception {
        for (String path : List.of("/internal/credential/abc", "/q/health/ready", "/echoes", "/")) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)).POST(
                    HttpRequest.BodyPublishers.ofString("{}")));

            assertEquals(404, response.statusCode(), path);
            assertEquals(new JsonObject().put("message", "Cannot POST " + path).put("error", "Not Found")
                    .put("statusCode", 404), new JsonObject(response.body()));
            assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
            assertTrue(response.headers().firstValue(Gateway.REQUEST_ID).isPresent());
        }
    }

    @Test
    void routesOnTheNormalisedPathSoDotSegmentsCannotReachInternalRoutes() throws Exception {
        int before = STUB_REQUESTS.get();

        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/echo/%2e%2e/internal/credential/abc")));

        assertEquals(404, response.statusCode());
        assertEquals(before, STUB_REQUESTS.get());
    }

    @Test
    void answers503ForAServiceThatIsNotRunning() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/down/abc")));

        assertEquals(503, response.statusCode());
        assertEquals(new JsonObject().put("message", "down-service is not running").put("error", "Service Unavailable")
                .put("statusCode", 503), new JsonObject(response.body()));
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void answers503ForAServiceThatDoesNotAnswer() throws Exception {
        HttpResponse<String> withBody = send(HttpRequest.newBuilder(uri("/gone/abc"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"provider\":\"openai\"}")));
        HttpResponse<String> next = send(HttpRequest.newBuilder(uri("/gone")));

        for (HttpResponse<String> response : List.of(withBody, next)) {
            assertEquals(503, response.statusCode());
            assertEquals("gone-service is not running", new JsonObject(response.body()).getString("message"));
        }
        assertFalse(withBody.headers().firstValue(Gateway.REQUEST_ID).orElseThrow().isBlank());
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String pathAndQuery) {
        return URI.create("http://localhost:" + port + pathAndQuery);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
