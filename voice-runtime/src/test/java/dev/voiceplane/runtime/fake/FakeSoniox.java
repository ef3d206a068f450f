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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * A local Soniox real-time server, for tests without the internet.
 *
 * <p>Protocol (Soniox's "WebSocket API" reference, its real-time "Error handling" page and the realtime module and
 * types of its Python SDK): {@code GET /transcribe-websocket} upgraded to a WebSocket; the key in
 * {@code Authorization: Bearer} (and, when the start message has one, its deprecated {@code api_key} must be the same
 * key). The first message is the start message, JSON: {@code model} (an {@code stt-rt-…} model), {@code audio_format}
 * ({@code pcm_s16le} or {@code mulaw} here; raw formats need {@code sample_rate} and {@code num_channels}),
 * {@code language_hints}, {@code context}, {@code enable_endpoint_detection}, {@code max_endpoint_delay_ms}. Then
 * binary frames of audio; text frames {@code {"type":"finalize"}} and {@code {"type":"keepalive"}}; an empty frame
 * ends the audio (the last tokens, then {@code {"tokens":[],"finished":true}} and a close 1000). Every error is a
 * response {@code {"error_code":<HTTP status>,"error_message":"…"}} followed by the close, as Soniox does: a wrong key
 * 401, a start message that is not valid 400.
 *
 * <p>Recognition is scripted ({@link ScriptedRecognizer}: the k-th segment of a connection is the k-th transcript of its
 * script). Responses: every 200 ms of speech the words so far as non-final tokens ({@code " are"}: a token's text
 * carries its leading space); at a segment's end its words as final tokens, then {@code <fin>} when a finalize ended
 * it, or {@code <end>} when endpoint detection did ({@code max_endpoint_delay_ms} of silence, 2000 by default). A
 * finalize with nothing pending answers {@code <fin>} alone.
 *
 * <p>Failure modes: a refused key (401 whatever key is sent), too many requests (429), a handshake refused with 500, a
 * stream that never answers or whose handshake is never answered, text that is not JSON, and the request terminated
 * early at the first finalize (503 "Cannot continue request", as Soniox ends a session it cannot go on with).
 */
public final class FakeSoniox implements AutoCloseable {

    public enum Failure {
        NONE, BAD_KEY, TOO_MANY_REQUESTS, REFUSE_500, HANG, HANG_UPGRADE, GARBAGE, TERMINATED_ON_FINALIZE
    }

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;
    private volatile List<String> script = List.of();
    private final Map<Integer, List<String>> scripts = new ConcurrentHashMap<>();
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger finalizes = new AtomicInteger();
    private final DoubleAdder audioSeconds = new DoubleAdder();
    private final List<JsonObject> configs = new CopyOnWriteArrayList<>();
    private final List<String> controlMessages = new CopyOnWriteArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private volatile String lastAuthorization;

    public FakeSoniox(String apiKey) {
        this.apiKey = apiKey;
        this.server = LoopbackServer.start(vertx, this::handle, "Soniox");
    }

    /** {@code ws://127.0.0.1:<port>}: the base URL, as {@code VOICE_SONIOX_URL} names the real one. */
    public String baseUrl() {
        return "ws://127.0.0.1:" + server.actualPort();
    }

    public FakeSoniox script(String... transcripts) {
        this.script = List.of(transcripts);
        this.scripts.clear();
        return this;
    }

    /** The script of the {@code connection}-th accepted connection (0-based). */
    public FakeSoniox scriptFor(int connection, String... transcripts) {
        scripts.put(connection, List.of(transcripts));
        return this;
    }

    public FakeSoniox failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    public int connections() {
        return connections.get();
    }

    public int finalizes() {
        return finalizes.get();
    }

    public double audioSeconds() {
        return audioSeconds.sum();
    }

    /** Every start message received (the {@code api_key} in it replaced by {@code "<key>"}), in order. */
    public List<JsonObject> configs() {
        return List.copyOf(configs);
    }

    /** Every text message after the start message, in order (the empty end-of-audio frame as {@code ""}). */
    public List<String> controlMessages() {
        return List.copyOf(controlMessages);
    }

    /** Every text message sent to clients. */
    public List<String> sent() {
        return List.copyOf(sent);
    }

    public String lastAuthorization() {
        return lastAuthorization;
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "Soniox");
    }

    private void handle(HttpServerRequest request) {
        if (!"/transcribe-websocket".equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        connections.incrementAndGet();
        lastAuthorization = request.getHeader("Authorization");
        Failure mode = failure;
        if (mode == Failure.REFUSE_500) {
            request.response().setStatusCode(500).end("Internal Server Error");
            return;
        }
        if (mode == Failure.HANG_UPGRADE) {
            request.pause();
            return;
        }
        boolean authorized = ("Bearer " + apiKey).equals(lastAuthorization) && mode != Failure.BAD_KEY;
        List<String> transcripts = authorized ? scripts.getOrDefault(accepted.getAndIncrement(), script) : List.of();
        request.toWebSocket().onSuccess(ws -> {
            if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
            } else {
                new Session(ws, transcripts, authorized, mode).start();
            }
        });
    }

    private void send(ServerWebSocket ws, boolean garbage, JsonObject response) {
        String text = garbage ? "<html>tokens</html>" : response.encode();
        sent.add(text);
        ws.writeTextMessage(text);
    }

    private final class Session implements ScriptedRecognizer.Events {
        private final ServerWebSocket ws;
        private final List<String> transcripts;
        private final boolean authorized;
        private final Failure mode;
        private ScriptedRecognizer recognizer;
        private boolean mulaw;
        private int sampleRate;
        private boolean finalizing;
        private boolean closed;

        Session(ServerWebSocket ws, List<String> transcripts, boolean authorized, Failure mode) {
            this.ws = ws;
            this.transcripts = transcripts;
            this.authorized = authorized;
            this.mode = mode;
        }

        void start() {
            ws.closeHandler(v -> closed = true);
            ws.binaryMessageHandler(this::audio);
            ws.textMessageHandler(this::message);
        }

        private void message(String text) {
            if (recognizer == null) {
                start(text);
                return;
            }
            controlMessages.add(text);
            if (text.isEmpty()) {
                recognizer.endNow();
                send(new JsonObject().put("tokens", new JsonArray()).put("finished", true));
                ws.close((short) 1000);
                return;
            }
            String type;
            try {
                type = new JsonObject(text).getString("type", "");
            } catch (RuntimeException e) {
                error(400, "Invalid message.");
                return;
            }
            switch (type) {
                case "finalize" -> {
                    finalizes.incrementAndGet();
                    if (mode == Failure.TERMINATED_ON_FINALIZE) {
                        error(503, "Cannot continue request (code 3). Please restart the request.");
                        return;
                    }
                    finalizing = true;
                    if (!recognizer.endNow()) {
                        send(tokens(new JsonArray().add(special(SpecialToken.FIN))));
                    }
                    finalizing = false;
                }
                case "keepalive" -> {
                }
                default -> error(400, "Invalid message type: " + type);
            }
        }

        private void start(String text) {
            JsonObject config;
            try {
                config = new JsonObject(text);
            } catch (RuntimeException e) {
                error(400, "Start request is not valid JSON.");
                return;
            }
            JsonObject recorded = config.copy();
            if (recorded.containsKey("api_key")) {
                recorded.put("api_key", "<key>");
            }
            configs.add(recorded);
            String bodyKey = config.getString("api_key");
            if (!authorized || (bodyKey != null && !bodyKey.equals(apiKey))) {
                error(401, "Invalid API key.");
                return;
            }
            if (mode == Failure.TOO_MANY_REQUESTS) {
                error(429, "Too many requests.");
                return;
            }
            String model = config.getString("model", "");
            String format = config.getString("audio_format", "auto");
            if (!model.startsWith("stt-rt-")) {
                error(400, "Invalid model specified.");
                return;
            }
            if (!List.of("mulaw", "pcm_s16le").contains(format) || config.getInteger("sample_rate") == null
                    || !Integer.valueOf(1).equals(config.getInteger("num_channels"))) {
                error(400, "The fake takes mulaw or pcm_s16le with sample_rate and one channel.");
                return;
            }
            mulaw = "mulaw".equals(format);
            sampleRate = config.getInteger("sample_rate");
            boolean endpoints = config.getBoolean("enable_endpoint_detection", false);
            long endpointMs = endpoints ? config.getLong("max_endpoint_delay_ms", 2000L) : Long.MAX_VALUE / 4;
            recognizer = new ScriptedRecognizer(transcripts, sampleRate, 500, endpointMs, 200, this);
        }

        private void audio(Buffer buffer) {
            if (recognizer == null) {
                error(400, "Audio before the start request.");
                return;
            }
            byte[] bytes = buffer.getBytes();
            int samples = mulaw ? bytes.length : bytes.length / 2;
            audioSeconds.add((double) samples / sampleRate);
            recognizer.samples(mulaw ? SpeechFixtures.decodeMulaw(bytes, 0, bytes.length)
                    : SpeechFixtures.decodePcm16le(bytes, 0, bytes.length));
        }

        @Override
        public void started(double at) {
        }

        @Override
        public void partial(List<String> words, double at) {
            send(tokens(words(words, false)));
        }

        @Override
        public void ended(String transcript, double start, double end) {
            JsonArray tokens = words(transcript.isBlank() ? List.of() : List.of(transcript.split("\\s+")), true);
            send(tokens(tokens.add(special(finalizing ? SpecialToken.FIN : SpecialToken.END))));
        }

        private JsonArray words(List<String> words, boolean isFinal) {
            JsonArray tokens = new JsonArray();
            long startMs = Math.round(recognizer.segmentStart() * 1000);
            for (int i = 0; i < words.size(); i++) {
                tokens.add(new JsonObject().put("text", (i == 0 ? "" : " ") + words.get(i))
                        .put("start_ms", startMs + i * 300L).put("end_ms", startMs + i * 300L + 250)
                        .put("confidence", 0.97).put("is_final", isFinal));
            }
            return tokens;
        }

        private JsonObject special(SpecialToken token) {
            return new JsonObject().put("text", token == SpecialToken.FIN ? "<fin>" : "<end>").put("is_final", true);
        }

        private JsonObject tokens(JsonArray tokens) {
            long processed = Math.round(recognizer.now() * 1000);
            return new JsonObject().put("tokens", tokens).put("final_audio_proc_ms", processed)
                    .put("total_audio_proc_ms", processed);
        }

        private void error(int code, String message) {
            send(new JsonObject().put("error_code", code).put("error_message", message));
            ws.close((short) 1000);
        }

        private void send(JsonObject response) {
            if (!closed) {
                FakeSoniox.this.send(ws, mode == Failure.GARBAGE, response);
            }
        }
    }

    private enum SpecialToken {
        END, FIN
    }
}
