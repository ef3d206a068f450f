package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local Cartesia text-to-speech WebSocket server, for tests without the internet.
 *
 * <p>Protocol, as Cartesia documents it (docs.cartesia.ai: "Text to Speech (WebSocket)", "Contexts", "API
 * Conventions", "API Errors", for {@code Cartesia-Version: 2026-03-01}; the official SDKs' {@code WebsocketResponse}
 * types): {@code GET /tts/websocket} upgraded to a WebSocket when the key comes as {@code X-API-Key: <key>},
 * {@code Authorization: Bearer <key>} or {@code ?api_key=<key>} (else 401 with the structured error object
 * {@code {error_code, title, message, request_id}}), and a version as the {@code Cartesia-Version} header or the
 * {@code cartesia_version} query parameter (else 400). Client messages are JSON: a generation request
 * {@code {model_id, transcript, voice:{mode:"id", id}, output_format:{container:"raw", encoding, sample_rate},
 * language?, generation_config?, context_id, continue}} or a cancel {@code {context_id, cancel:true}}. Each
 * context is generated on its own (the socket multiplexes): after {@link #ttfbMs}, the transcript really spoken
 * (espeak-ng, {@link SpeechFixtures}) in the format asked ({@code pcm_mulaw} 8 kHz, {@code pcm_s16le} 16 or 24 kHz; the
 * fake makes no other) as {@code {"type":"chunk","data":<base64>,"done":false,"status_code":206,"step_time",
 * "context_id"}} of {@link #chunkMs} of audio each, sent at {@link #realTimeFactor} times real time (0, the default: as
 * fast as possible), then {@code {"type":"done","done":true,"status_code":206,"context_id"}}. A cancelled context
 * sends nothing more. A request the fake cannot read, or a continuation ({@code continue:true}: not spoken by this
 * fake), gets {@code {"type":"error","done":true,"status_code":400,"error_code","title","message","request_id",
 * "context_id"}}. Every upgrade, request and cancel is recorded.
 *
 * <p>Failure modes ({@link #failure}, read at each upgrade or request, so a test may switch it mid-call): a refused
 * key (401 at the upgrade), too many requests (the error event with 429 {@code concurrency_limited}, as the docs show
 * it), a server error (the error event with 500), hang (the request is never answered), garbage (a text frame that is
 * not JSON instead of the answer).
 *
 * <p>The same server is Cartesia's realtime speech-to-text, {@code /stt/websocket} ({@link #stt}).
 */
public final class FakeCartesia implements AutoCloseable {

    public enum Failure {
        NONE, UNAUTHORIZED, RATE_LIMITED, SERVER_ERROR, HANG, GARBAGE
    }

    /** One upgrade request as received (the key however it came, the version header or query parameter). */
    public record Upgrade(String apiKey, String version, boolean keyInHeader) {
    }

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;
    private volatile long ttfbMs;
    private volatile double realTimeFactor;
    private volatile int chunkMs = 100;
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger openConnections = new AtomicInteger();
    private final List<Upgrade> upgrades = new CopyOnWriteArrayList<>();
    private final List<JsonObject> requests = new CopyOnWriteArrayList<>();
    private final List<String> cancels = new CopyOnWriteArrayList<>();
    private final List<String> done = new CopyOnWriteArrayList<>();
    private final Set<ServerWebSocket> sockets = ConcurrentHashMap.newKeySet();
    private final FakeCartesiaStt stt;

    /** Starts the server on a random loopback port; clients must send {@code apiKey}. */
    public FakeCartesia(String apiKey) {
        this.apiKey = apiKey;
        this.stt = new FakeCartesiaStt(apiKey);
        this.server = LoopbackServer.start(vertx, this::handle, "Cartesia");
    }

    public int port() {
        return server.actualPort();
    }

    /** {@code http://127.0.0.1:<port>} (the real one is {@code https://api.cartesia.ai}; WebSockets use wss). */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** Wall time before a context's first chunk. */
    public FakeCartesia ttfbMs(long millis) {
        this.ttfbMs = millis;
        return this;
    }

    /** Audio is sent this many times faster than real time (1 = real time); 0 (default) = as fast as possible. */
    public FakeCartesia realTimeFactor(double factor) {
        this.realTimeFactor = factor;
        return this;
    }

    /** Audio per chunk (default 100 ms). */
    public FakeCartesia chunkMs(int millis) {
        this.chunkMs = millis;
        return this;
    }

    public FakeCartesia failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    /** Every upgrade request, refused ones included. */
    public List<Upgrade> upgrades() {
        return List.copyOf(upgrades);
    }

    /** Connections open now. */
    public int openConnections() {
        return openConnections.get();
    }

    /** Every generation request received, in order (all connections). */
    public List<JsonObject> requests() {
        return List.copyOf(requests);
    }

    /** The context ids of every cancel received, in order. */
    public List<String> cancels() {
        return List.copyOf(cancels);
    }

    /** The context ids whose {@code done} was sent, in order. */
    public List<String> done() {
        return List.copyOf(done);
    }

    /** Closes every open connection (1000), as Cartesia does with a connection left idle. */
    public void dropConnections() {
        for (ServerWebSocket socket : sockets) {
            socket.close((short) 1000, "idle");
        }
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "Cartesia");
    }

    /** Cartesia's realtime speech-to-text on this server, {@code /stt/websocket}. */
    public FakeCartesiaStt stt() {
        return stt;
    }

    private void handle(HttpServerRequest request) {
        if (FakeCartesiaStt.PATH.equals(request.path())) {
            stt.handle(request);
            return;
        }
        if (!"/tts/websocket".equals(request.path())) {
            error(request, 404, "not_found", "Not Found", "No such endpoint");
            return;
        }
        String header = request.getHeader("X-API-Key");
        String bearer = request.getHeader("Authorization");
        String key = header != null ? header
                : bearer != null && bearer.startsWith("Bearer ") ? bearer.substring(7) : request.getParam("api_key");
        String version = request.getParam("cartesia_version") != null ? request.getParam("cartesia_version")
                : request.getHeader("Cartesia-Version");
        upgrades.add(new Upgrade(key, version, header != null || bearer != null));
        if (!apiKey.equals(key) || failure == Failure.UNAUTHORIZED) {
            error(request, 401, "invalid_api_key", "Unauthorized", "Invalid API key");
            return;
        }
        if (version == null || version.isBlank()) {
            error(request, 400, "missing_version", "Missing version", "Send a Cartesia-Version header");
            return;
        }
        request.toWebSocket().onSuccess(ws -> new Session(ws).start());
    }

    private static void error(HttpServerRequest request, int status, String code, String title, String message) {
        request.response().setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("error_code", code).put("title", title).put("message", message)
                        .put("request_id", UUID.randomUUID().toString()).encode());
    }

    /** One connection; everything runs on its event loop. */
    private final class Session {
        private final ServerWebSocket ws;
        private final Map<String, Runnable> generating = new HashMap<>();
        private boolean closed;

        Session(ServerWebSocket ws) {
            this.ws = ws;
        }

        void start() {
            openConnections.incrementAndGet();
            sockets.add(ws);
            ws.closeHandler(v -> {
                closed = true;
                sockets.remove(ws);
                openConnections.decrementAndGet();
                generating.values().forEach(Runnable::run);
                generating.clear();
            });
            ws.textMessageHandler(this::message);
        }

        private void message(String text) {
            JsonObject message;
            try {
                message = new JsonObject(text);
            } catch (RuntimeException e) {
                error(null, 400, "invalid_request", "Invalid request", "The message is not JSON");
                return;
            }
            String contextId = message.getString("context_id");
            if (Boolean.TRUE.equals(message.getValue("cancel"))) {
                cancels.add(String.valueOf(contextId));
                Runnable stop = generating.remove(contextId);
                if (stop != null) {
                    stop.run();
                }
                return;
            }
            requests.add(message);
            switch (failure) {
                case HANG -> {
                    return;
                }
                case GARBAGE -> {
                    ws.writeTextMessage("<html><body>502 Bad Gateway</body></html>");
                    return;
                }
                case RATE_LIMITED -> {
                    error(contextId, 429, "concurrency_limited", "Too many concurrent requests",
                            "You have exceeded your plan's concurrency limit.");
                    return;
                }
                case SERVER_ERROR -> {
                    error(contextId, 500, "internal_error", "Internal server error", "Something went wrong.");
                    return;
                }
                default -> {
                }
            }
            JsonObject voice = message.getJsonObject("voice", new JsonObject());
            JsonObject output = message.getJsonObject("output_format", new JsonObject());
            String transcript = message.getString("transcript");
            if (contextId == null || message.getString("model_id", "").isBlank() || transcript == null
                    || !"id".equals(voice.getString("mode")) || voice.getString("id", "").isBlank()) {
                error(contextId, 400, "invalid_request", "Invalid request",
                        "context_id, model_id, transcript and voice {mode:\"id\", id} are required");
                return;
            }
            if (Boolean.TRUE.equals(message.getValue("continue"))) {
                error(contextId, 400, "invalid_request", "Not supported", "the fake speaks whole transcripts only");
                return;
            }
            String format = output.getString("container") + "/" + output.getString("encoding") + "/"
                    + output.getValue("sample_rate");
            Callable<byte[]> speech;
            int bytesPerMs;
            switch (format) {
                case "raw/pcm_mulaw/8000" -> {
                    speech = () -> SpeechFixtures.mulaw8k(transcript);
                    bytesPerMs = 8;
                }
                case "raw/pcm_s16le/16000" -> {
                    speech = () -> SpeechFixtures.pcm16k(transcript);
                    bytesPerMs = 32;
                }
                case "raw/pcm_s16le/24000" -> {
                    speech = () -> SpeechFixtures.pcm24k(transcript);
                    bytesPerMs = 48;
                }
                default -> {
                    error(contextId, 400, "invalid_output_format", "Invalid output format",
                            "the fake speaks raw pcm_mulaw 8000 and pcm_s16le 16000 or 24000, not " + format);
                    return;
                }
            }
            generating.put(contextId, PacedAudio.send(vertx, speech, bytesPerMs * chunkMs, chunkMs, ttfbMs,
                    realTimeFactor, chunk -> send(new JsonObject().put("type", "chunk")
                            .put("data", Base64.getEncoder().encodeToString(chunk)).put("done", false)
                            .put("status_code", 206).put("step_time", 12.5).put("context_id", contextId)),
                    () -> {
                        generating.remove(contextId);
                        done.add(contextId);
                        send(new JsonObject().put("type", "done").put("done", true).put("status_code", 206)
                                .put("context_id", contextId));
                    },
                    failed -> error(contextId, 500, "internal_error", "Fixture failed", failed)));
        }

        private void error(String contextId, int status, String code, String title, String message) {
            JsonObject error = new JsonObject().put("type", "error").put("done", true).put("status_code", status)
                    .put("error_code", code).put("title", title).put("message", message)
                    .put("request_id", UUID.randomUUID().toString());
            if (contextId != null) {
                error.put("context_id", contextId);
            }
            send(error);
        }

        private void send(JsonObject message) {
            if (!closed) {
                ws.writeTextMessage(message.encode());
            }
        }
    }
}
