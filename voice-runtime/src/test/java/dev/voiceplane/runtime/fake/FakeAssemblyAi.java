package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * A local AssemblyAI Universal-Streaming v3 server, for tests without the internet.
 *
 * <p>Protocol (AssemblyAI's streaming API reference, "Message Sequence" and "Common session errors and closures"
 * pages, and the v3 models and error-code table of its Python SDK, assemblyai/streaming/v3): {@code GET /v3/ws?
 * sample_rate=8000&encoding=pcm_mulaw} (or {@code pcm_s16le}) {@code &format_turns=true&speech_model=…
 * &keyterms_prompt=["…"]}, upgraded to a WebSocket, key in {@code Authorization} (the key itself, no scheme). A wrong
 * key is accepted and then refused as AssemblyAI does: an {@code Error} frame, then the close 1008 "Unauthorized
 * Connection: Invalid API key". Binary messages are audio and must each be 50 to 1000 ms long (else {@code Error} and
 * close 3007 "Input duration violation"); text messages are {@code ForceEndpoint} (the turn ends now),
 * {@code Terminate} ({@code Termination}, then close 1000), {@code KeepAlive} and {@code UpdateConfiguration}
 * (accepted); anything else is closed with 3006.
 *
 * <p>Recognition is scripted ({@link ScriptedRecognizer}: the k-th speech segment of a connection is the k-th transcript
 * of its script). Server messages: {@code Begin} at once; {@code SpeechStarted} when a segment starts; a {@code Turn}
 * with {@code end_of_turn:false} every 200 ms of speech (the words so far, lower case, unpunctuated); at the turn's end
 * ({@value #END_OF_TURN_MS} ms of silence, or {@code ForceEndpoint}) a {@code Turn} with {@code end_of_turn:true}
 * unformatted, then, with {@code format_turns=true}, the same turn formatted (the script's text as written,
 * {@code turn_is_formatted:true}).
 *
 * <p>Failure modes: a refused key ({@link Failure#BAD_KEY}, whatever key is sent), too many concurrent sessions (Error
 * then close 3009, AssemblyAI's answer where an HTTP API answers 429), an upgrade refused with 500, a stream that never
 * answers (not even {@code Begin}) or whose upgrade is never answered, text that is not JSON, and a session cancelled
 * mid-stream at the first {@code ForceEndpoint} (Error, then close 3005 "Session Cancelled: An error occurred").
 */
public final class FakeAssemblyAi implements AutoCloseable {

    public enum Failure {
        NONE, BAD_KEY, TOO_MANY_SESSIONS, REFUSE_500, HANG, HANG_UPGRADE, GARBAGE, CANCEL_ON_FORCE_ENDPOINT
    }

    static final long END_OF_TURN_MS = 400;

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;
    private volatile List<String> script = List.of();
    private final Map<Integer, List<String>> scripts = new ConcurrentHashMap<>();
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger forceEndpoints = new AtomicInteger();
    private final DoubleAdder audioSeconds = new DoubleAdder();
    private final List<String> controlMessages = new CopyOnWriteArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final List<Integer> chunkMillis = new CopyOnWriteArrayList<>();
    private volatile Map<String, List<String>> lastQuery = Map.of();
    private volatile String lastAuthorization;

    public FakeAssemblyAi(String apiKey) {
        this.apiKey = apiKey;
        this.server = LoopbackServer.start(vertx, this::handle, "AssemblyAI");
    }

    /** {@code ws://127.0.0.1:<port>}: the base URL, as {@code VOICE_ASSEMBLYAI_URL} names the real one. */
    public String baseUrl() {
        return "ws://127.0.0.1:" + server.actualPort();
    }

    public FakeAssemblyAi script(String... transcripts) {
        this.script = List.of(transcripts);
        this.scripts.clear();
        return this;
    }

    /** The script of the {@code connection}-th accepted connection (0-based). */
    public FakeAssemblyAi scriptFor(int connection, String... transcripts) {
        scripts.put(connection, List.of(transcripts));
        return this;
    }

    public FakeAssemblyAi failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    public int connections() {
        return connections.get();
    }

    public int forceEndpoints() {
        return forceEndpoints.get();
    }

    public double audioSeconds() {
        return audioSeconds.sum();
    }

    /** Every audio message's length in milliseconds, all connections. */
    public List<Integer> chunkMillis() {
        return List.copyOf(chunkMillis);
    }

    public List<String> controlMessages() {
        return List.copyOf(controlMessages);
    }

    /** Every text message sent to clients. */
    public List<String> sent() {
        return List.copyOf(sent);
    }

    public String lastQuery(String name) {
        return ScriptedRecognizer.first(lastQuery, name, null);
    }

    public String lastAuthorization() {
        return lastAuthorization;
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "AssemblyAI");
    }

    private void handle(HttpServerRequest request) {
        if (!"/v3/ws".equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        connections.incrementAndGet();
        lastAuthorization = request.getHeader("Authorization");
        Map<String, List<String>> query = ScriptedRecognizer.parseQuery(request.query());
        lastQuery = query;
        Failure mode = failure;
        if (mode == Failure.REFUSE_500) {
            request.response().setStatusCode(500).end("Internal Server Error");
            return;
        }
        if (mode == Failure.HANG_UPGRADE) {
            request.pause();
            return;
        }
        boolean authorized = apiKey.equals(lastAuthorization) && mode != Failure.BAD_KEY;
        List<String> transcripts = authorized ? scripts.getOrDefault(accepted.getAndIncrement(), script) : List.of();
        request.toWebSocket().onSuccess(ws -> {
            if (!authorized) {
                error(ws, 1008, "Unauthorized Connection: Invalid API key");
            } else if (mode == Failure.TOO_MANY_SESSIONS) {
                error(ws, 3009, "Unauthorized Connection: Too many concurrent sessions");
            } else if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
            } else {
                new Session(ws, query, transcripts, mode).start();
            }
        });
    }

    private void error(ServerWebSocket ws, int code, String reason) {
        send(ws, false, new JsonObject().put("type", "Error").put("error_code", code).put("error", reason));
        ws.close((short) code, reason);
    }

    private void send(ServerWebSocket ws, boolean garbage, JsonObject message) {
        String text = garbage ? "<html>" + message.getString("type") + "</html>" : message.encode();
        sent.add(text);
        ws.writeTextMessage(text);
    }

    private final class Session implements ScriptedRecognizer.Events {
        private final ServerWebSocket ws;
        private final boolean mulaw;
        private final int sampleRate;
        private final boolean formatTurns;
        private final Failure mode;
        private final ScriptedRecognizer recognizer;
        private final long startedAt = System.nanoTime();
        private int turnOrder;
        private boolean closed;

        Session(ServerWebSocket ws, Map<String, List<String>> query, List<String> transcripts, Failure mode) {
            this.ws = ws;
            this.mode = mode;
            this.mulaw = "pcm_mulaw".equals(ScriptedRecognizer.first(query, "encoding", "pcm_s16le"));
            this.sampleRate = Integer.parseInt(ScriptedRecognizer.first(query, "sample_rate", "16000"));
            this.formatTurns = "true".equals(ScriptedRecognizer.first(query, "format_turns", "false"));
            this.recognizer = new ScriptedRecognizer(transcripts, sampleRate, 500, END_OF_TURN_MS, 200, this);
        }

        void start() {
            ws.closeHandler(v -> closed = true);
            ws.binaryMessageHandler(this::audio);
            ws.textMessageHandler(this::control);
            send(new JsonObject().put("type", "Begin").put("id", UUID.randomUUID().toString())
                    .put("expires_at", System.currentTimeMillis() / 1000 + 3600));
        }

        private void audio(Buffer buffer) {
            byte[] bytes = buffer.getBytes();
            int samples = mulaw ? bytes.length : bytes.length / 2;
            int millis = samples * 1000 / sampleRate;
            chunkMillis.add(millis);
            if (millis < 50 || millis > 1000) {
                error(ws, 3007, "Input duration violation: " + millis + " ms. Expected between 50 and 1000 ms");
                return;
            }
            audioSeconds.add((double) samples / sampleRate);
            recognizer.samples(mulaw ? SpeechFixtures.decodeMulaw(bytes, 0, bytes.length)
                    : SpeechFixtures.decodePcm16le(bytes, 0, bytes.length));
        }

        private void control(String text) {
            controlMessages.add(text);
            String type;
            try {
                type = new JsonObject(text).getString("type", "");
            } catch (RuntimeException e) {
                error(ws, 3006, "Invalid JSON: " + text);
                return;
            }
            switch (type) {
                case "ForceEndpoint" -> {
                    forceEndpoints.incrementAndGet();
                    if (mode == Failure.CANCEL_ON_FORCE_ENDPOINT) {
                        error(ws, 3005, "Session Cancelled: An error occurred");
                        return;
                    }
                    recognizer.endNow();
                }
                case "Terminate" -> {
                    recognizer.endNow();
                    long seconds = (System.nanoTime() - startedAt) / 1_000_000_000L;
                    send(new JsonObject().put("type", "Termination")
                            .put("audio_duration_seconds", (long) recognizer.now())
                            .put("session_duration_seconds", seconds));
                    ws.close((short) 1000);
                }
                case "KeepAlive", "UpdateConfiguration" -> {
                }
                default -> error(ws, 3006, "Invalid Message Type: " + type);
            }
        }

        @Override
        public void started(double at) {
            send(new JsonObject().put("type", "SpeechStarted").put("timestamp", Math.round(at * 1000)));
        }

        @Override
        public void partial(List<String> words, double at) {
            send(turn(ScriptedRecognizer.unformatted(String.join(" ", words)), false, false, at));
        }

        @Override
        public void ended(String transcript, double start, double end) {
            send(turn(ScriptedRecognizer.unformatted(transcript), true, false, end));
            if (formatTurns) {
                send(turn(transcript, true, true, end));
            }
            turnOrder++;
        }

        private JsonObject turn(String transcript, boolean endOfTurn, boolean formatted, double at) {
            JsonArray words = new JsonArray();
            String[] split = transcript.isBlank() ? new String[0] : transcript.split("\\s+");
            long startMs = Math.round(recognizer.segmentStart() * 1000);
            long step = split.length == 0 ? 0 : Math.max(1, (Math.round(at * 1000) - startMs) / split.length);
            for (int i = 0; i < split.length; i++) {
                words.add(new JsonObject().put("start", startMs + i * step).put("end", startMs + (i + 1) * step)
                        .put("confidence", 0.98).put("text", split[i]).put("word_is_final", endOfTurn));
            }
            return new JsonObject().put("type", "Turn").put("turn_order", turnOrder)
                    .put("turn_is_formatted", formatted).put("end_of_turn", endOfTurn).put("transcript", transcript)
                    .put("end_of_turn_confidence", endOfTurn ? 0.9 : 0.1).put("words", words);
        }

        private void send(JsonObject message) {
            if (!closed) {
                FakeAssemblyAi.this.send(ws, mode == Failure.GARBAGE, message);
            }
        }
    }
}
