package dev.voiceplane.runtime.fake;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * Cartesia's realtime speech-to-text with manual finalization (Ink), served by {@link FakeCartesia} beside its
 * speech, for tests without the internet.
 *
 * <p>Protocol (Cartesia's API reference "Realtime Speech-to-Text" for {@code Cartesia-Version: 2026-03-01}, its
 * migration guides and its manual-finalize examples): {@code GET /stt/websocket?model&language&encoding
 * &sample_rate}, upgraded to a WebSocket when the key comes as {@code X-API-Key} (or {@code Authorization: Bearer},
 * or {@code ?api_key}) and a version as the {@code Cartesia-Version} header or {@code cartesia_version} (401 and 400
 * at the upgrade otherwise, with Cartesia's error object). {@code encoding} is one of {@code pcm_s16le},
 * {@code pcm_s32le}, {@code pcm_f16le}, {@code pcm_f32le}, {@code pcm_mulaw}, {@code pcm_alaw} (the fake hears
 * {@code pcm_s16le} and {@code pcm_mulaw}), {@code model} an {@code ink-…} model; others are 400. Binary frames are
 * audio; control commands are bare text frames: {@code finalize} (the words held become final, then
 * {@code {"type":"flush_done"}}) and {@code done} ({@code {"type":"done"}}, then a close 1000).
 *
 * <p>Recognition is scripted ({@link ScriptedRecognizer}: the k-th segment of a connection is the k-th transcript of its
 * script). Events are deltas: every 200 ms of speech a non-final {@code transcript} with the words so far; at the
 * segment's end (a {@code finalize}, or 2 s of silence) a final one with its words (after a space when words were
 * final before it, so that joined as sent they read right). Failure modes: a refused key (401 at the upgrade), too
 * many requests (the error event with 429, then a close), a server error at the upgrade (500), a stream that never
 * answers (not even {@code flush_done}) or whose upgrade is never answered, text that is not JSON, and an error event
 * with 500 at the first {@code finalize} (then a close 1011).
 */
public final class FakeCartesiaStt {

    public enum Failure {
        NONE, UNAUTHORIZED, RATE_LIMITED, SERVER_ERROR, HANG, HANG_UPGRADE, GARBAGE, ERROR_ON_FINALIZE
    }

    static final String PATH = "/stt/websocket";
    private static final Set<String> ENCODINGS = Set.of("pcm_s16le", "pcm_s32le", "pcm_f16le", "pcm_f32le",
            "pcm_mulaw", "pcm_alaw");

    private final String apiKey;
    private volatile List<String> script = List.of();
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger finalizes = new AtomicInteger();
    private final DoubleAdder audioSeconds = new DoubleAdder();
    private final List<Integer> chunkMillis = new CopyOnWriteArrayList<>();
    private final List<String> controlMessages = new CopyOnWriteArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private volatile Map<String, List<String>> lastQuery = Map.of();
    private volatile String lastApiKey;
    private volatile String lastVersion;

    FakeCartesiaStt(String apiKey) {
        this.apiKey = apiKey;
    }

    public FakeCartesiaStt script(String... transcripts) {
        this.script = List.of(transcripts);
        return this;
    }

    public FakeCartesiaStt failure(Failure failure) {
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

    /** Every audio frame's length in milliseconds, all connections. */
    public List<Integer> chunkMillis() {
        return List.copyOf(chunkMillis);
    }

    /** Every text frame received, all connections. */
    public List<String> controlMessages() {
        return List.copyOf(controlMessages);
    }

    public List<String> sent() {
        return List.copyOf(sent);
    }

    public String lastQuery(String name) {
        return ScriptedRecognizer.first(lastQuery, name, null);
    }

    public String lastApiKey() {
        return lastApiKey;
    }

    public String lastVersion() {
        return lastVersion;
    }

    /** One upgrade request on {@link #PATH}. */
    void handle(HttpServerRequest request) {
        connections.incrementAndGet();
        Map<String, List<String>> query = ScriptedRecognizer.parseQuery(request.query());
        lastQuery = query;
        String header = request.getHeader("X-API-Key");
        String bearer = request.getHeader("Authorization");
        String key = header != null ? header
                : bearer != null && bearer.startsWith("Bearer ") ? bearer.substring(7) : request.getParam("api_key");
        String version = request.getParam("cartesia_version") != null ? request.getParam("cartesia_version")
                : request.getHeader("Cartesia-Version");
        lastApiKey = key;
        lastVersion = version;
        Failure mode = failure;
        if (!apiKey.equals(key) || mode == Failure.UNAUTHORIZED) {
            refuse(request, 401, "invalid_api_key", "Unauthorized", "Invalid API key");
            return;
        }
        if (version == null || version.isBlank()) {
            refuse(request, 400, "missing_version", "Missing version", "Send a Cartesia-Version header");
            return;
        }
        String model = ScriptedRecognizer.first(query, "model", "");
        String encoding = ScriptedRecognizer.first(query, "encoding", "");
        String rate = ScriptedRecognizer.first(query, "sample_rate", "");
        if (!model.startsWith("ink-") || !ENCODINGS.contains(encoding) || !rate.matches("[0-9]+")) {
            refuse(request, 400, "invalid_request", "Invalid request", "model, encoding and sample_rate are required");
            return;
        }
        if (!encoding.equals("pcm_s16le") && !encoding.equals("pcm_mulaw")) {
            refuse(request, 400, "invalid_request", "Invalid request", "The fake hears pcm_s16le and pcm_mulaw");
            return;
        }
        if (mode == Failure.SERVER_ERROR) {
            refuse(request, 500, "internal_error", "Internal error", "An internal error occurred");
            return;
        }
        if (mode == Failure.HANG_UPGRADE) {
            request.pause();
            return;
        }
        List<String> transcripts = script;
        request.toWebSocket().onSuccess(ws -> {
            if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
            } else if (mode == Failure.RATE_LIMITED) {
                send(ws, false, error(429, "concurrency_limited", "Concurrency limited",
                        "Too many concurrent connections"));
                ws.close((short) 1008, "concurrency_limited");
            } else {
                new Session(ws, transcripts, encoding.equals("pcm_mulaw"), Integer.parseInt(rate), mode).start();
            }
        });
    }

    private static JsonObject error(int status, String code, String title, String message) {
        return new JsonObject().put("type", "error").put("title", title).put("message", message)
                .put("error_code", code).put("status_code", status).put("request_id", UUID.randomUUID().toString());
    }

    private static void refuse(HttpServerRequest request, int status, String code, String title, String message) {
        JsonObject body = error(status, code, title, message);
        body.remove("type");
        request.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.encode());
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
        private final Failure mode;
        private final ScriptedRecognizer recognizer;
        private final String requestId = UUID.randomUUID().toString();
        private boolean finalBefore;
        private boolean closed;

        Session(ServerWebSocket ws, List<String> transcripts, boolean mulaw, int sampleRate, Failure mode) {
            this.ws = ws;
            this.mulaw = mulaw;
            this.sampleRate = sampleRate;
            this.mode = mode;
            this.recognizer = new ScriptedRecognizer(transcripts, sampleRate, 500, 2000, 200, this);
        }

        void start() {
            ws.closeHandler(v -> closed = true);
            ws.binaryMessageHandler(buffer -> {
                byte[] bytes = buffer.getBytes();
                int samples = mulaw ? bytes.length : bytes.length / 2;
                chunkMillis.add(samples * 1000 / sampleRate);
                audioSeconds.add((double) samples / sampleRate);
                recognizer.samples(mulaw ? SpeechFixtures.decodeMulaw(bytes, 0, bytes.length)
                        : SpeechFixtures.decodePcm16le(bytes, 0, bytes.length));
            });
            ws.textMessageHandler(this::command);
        }

        private void command(String text) {
            controlMessages.add(text);
            switch (text) {
                case "finalize" -> {
                    finalizes.incrementAndGet();
                    if (mode == Failure.ERROR_ON_FINALIZE) {
                        send(error(500, "internal_error", "Internal error", "The transcription failed"));
                        ws.close((short) 1011, "internal_error");
                        return;
                    }
                    recognizer.endNow();
                    finalBefore = false;
                    send(new JsonObject().put("type", "flush_done").put("request_id", requestId));
                }
                case "done" -> {
                    recognizer.endNow();
                    send(new JsonObject().put("type", "done").put("request_id", requestId));
                    ws.close((short) 1000);
                }
                default -> {
                    send(error(400, "invalid_command", "Invalid command", "Unknown command: " + text));
                    ws.close((short) 1008, "invalid_command");
                }
            }
        }

        @Override
        public void started(double at) {
        }

        @Override
        public void partial(List<String> words, double at) {
            send(transcript(String.join(" ", words), false, recognizer.segmentStart(), at));
        }

        @Override
        public void ended(String transcript, double start, double end) {
            if (transcript.isBlank()) {
                return;
            }
            send(transcript((finalBefore ? " " : "") + transcript, true, start, end));
            finalBefore = true;
        }

        private JsonObject transcript(String text, boolean isFinal, double start, double end) {
            JsonArray words = new JsonArray();
            String[] split = text.isBlank() ? new String[0] : text.trim().split("\\s+");
            double step = split.length == 0 ? 0 : (end - start) / split.length;
            for (int i = 0; i < split.length; i++) {
                words.add(new JsonObject().put("word", split[i]).put("start", start + i * step)
                        .put("end", start + (i + 1) * step));
            }
            return new JsonObject().put("type", "transcript").put("is_final", isFinal).put("request_id", requestId)
                    .put("text", text).put("duration", end - start).put("language", "en").put("words", words);
        }

        private void send(JsonObject message) {
            if (!closed) {
                FakeCartesiaStt.this.send(ws, mode == Failure.GARBAGE, message);
            }
        }
    }
}
