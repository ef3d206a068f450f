package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
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
 * Deepgram Flux ({@code /v2/listen}), served by {@link FakeDeepgram}'s server (Flux shares Deepgram's host and key).
 *
 * <p>Protocol (Deepgram's "Turn-based Audio (Flux)" API reference and AsyncAPI document, "Understanding the Flux State
 * Machine", and the 2025-10-16 changelog that added μ-law): {@code GET /v2/listen?model=flux-general-en
 * &encoding=linear16&sample_rate=16000} (or {@code mulaw} at 8000) {@code &eot_threshold=…&eager_eot_threshold=…
 * &eot_timeout_ms=…&keyterm=…&language_hint=…}, upgraded when {@code Authorization: Token <key>} carries the key (401
 * otherwise, like {@code /v1/listen}); an unknown model or encoding is a 400. Binary messages are audio; text messages
 * are {@code CloseStream} (the open turn ends, then close 1000), {@code KeepAlive} and {@code Configure}.
 *
 * <p>Recognition is scripted ({@link ScriptedRecognizer}). Server messages, each with its {@code sequence_id}:
 * {@code Connected} at once; {@code TurnInfo} events: {@code StartOfTurn} when a segment starts, {@code Update} every
 * 250 ms of audio whatever was heard (the turn's words so far, as written), {@code EagerEndOfTurn} after 200 ms of
 * silence when {@code eager_eot_threshold} was given, {@code EndOfTurn} with the turn's transcript after
 * {@value #END_OF_TURN_MS} ms of silence; {@code turn_index} counts the turns.
 *
 * <p>Failure modes: a refused upgrade (401, 429 {@code TOO_MANY_REQUESTS}, 500), a stream that never answers, an
 * upgrade never answered, text that is not JSON, and a stream that sends the fatal {@code Error}
 * ({@code INTERNAL_SERVER_ERROR}) and closes 1011 when the first turn starts.
 */
public final class FakeDeepgramFlux {

    public enum Failure {
        NONE, REFUSE_401, REFUSE_429, REFUSE_500, HANG, HANG_UPGRADE, GARBAGE, ERROR_ON_FIRST_TURN
    }

    static final long END_OF_TURN_MS = 400;
    private static final Set<String> MODELS = Set.of("flux-general-en", "flux-general-multi");

    private final Vertx vertx;
    private final String apiKey;
    private volatile List<String> script = List.of();
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger connections = new AtomicInteger();
    private final DoubleAdder audioSeconds = new DoubleAdder();
    private final List<String> controlMessages = new CopyOnWriteArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final List<Integer> chunkBytes = new CopyOnWriteArrayList<>();
    private volatile Map<String, List<String>> lastQuery = Map.of();
    private volatile String lastAuthorization;

    FakeDeepgramFlux(Vertx vertx, String apiKey) {
        this.vertx = vertx;
        this.apiKey = apiKey;
    }

    public FakeDeepgramFlux script(String... transcripts) {
        this.script = List.of(transcripts);
        return this;
    }

    public FakeDeepgramFlux failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    public int connections() {
        return connections.get();
    }

    public double audioSeconds() {
        return audioSeconds.sum();
    }

    /** The length of every audio message, all connections. */
    public List<Integer> chunkBytes() {
        return List.copyOf(chunkBytes);
    }

    public List<String> controlMessages() {
        return List.copyOf(controlMessages);
    }

    public List<String> sent() {
        return List.copyOf(sent);
    }

    public String lastQuery(String name) {
        return ScriptedRecognizer.first(lastQuery, name, null);
    }

    public List<String> lastQueryAll(String name) {
        return lastQuery.getOrDefault(name, List.of());
    }

    public String lastAuthorization() {
        return lastAuthorization;
    }

    void handle(HttpServerRequest request) {
        connections.incrementAndGet();
        lastAuthorization = request.getHeader("Authorization");
        Map<String, List<String>> query = ScriptedRecognizer.parseQuery(request.query());
        lastQuery = query;
        Failure mode = failure;
        if (!("Token " + apiKey).equals(lastAuthorization) || mode == Failure.REFUSE_401) {
            refuse(request, 401, "INVALID_AUTH", "Invalid credentials.");
            return;
        }
        if (mode == Failure.REFUSE_429) {
            refuse(request, 429, "TOO_MANY_REQUESTS", "Too many requests. Please try again later.");
            return;
        }
        if (mode == Failure.REFUSE_500) {
            refuse(request, 500, "INTERNAL_SERVER_ERROR", "Internal server error.");
            return;
        }
        String encoding = ScriptedRecognizer.first(query, "encoding", "");
        if (!MODELS.contains(ScriptedRecognizer.first(query, "model", ""))
                || !Set.of("linear16", "mulaw").contains(encoding)) {
            refuse(request, 400, "Bad Request", "Unsupported model or encoding.");
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
                return;
            }
            new Session(ws, query, transcripts, mode).start();
        });
    }

    private static void refuse(HttpServerRequest request, int status, String code, String message) {
        request.response().setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("err_code", code).put("err_msg", message)
                        .put("request_id", UUID.randomUUID().toString()).encode());
    }

    private final class Session implements ScriptedRecognizer.Events {
        private final ServerWebSocket ws;
        private final boolean mulaw;
        private final int sampleRate;
        private final boolean eager;
        private final Failure mode;
        private final ScriptedRecognizer recognizer;
        private final String requestId = UUID.randomUUID().toString();
        private int sequence;
        private int turnIndex;
        private double lastSentAt;
        private boolean eagerSent;
        private List<String> heard = List.of();
        private boolean closed;

        Session(ServerWebSocket ws, Map<String, List<String>> query, List<String> transcripts, Failure mode) {
            this.ws = ws;
            this.mode = mode;
            this.mulaw = "mulaw".equals(ScriptedRecognizer.first(query, "encoding", "linear16"));
            this.sampleRate = Integer.parseInt(ScriptedRecognizer.first(query, "sample_rate", "16000"));
            this.eager = query.containsKey("eager_eot_threshold");
            this.recognizer = new ScriptedRecognizer(transcripts, sampleRate, 500, END_OF_TURN_MS, 200, this);
        }

        void start() {
            ws.closeHandler(v -> closed = true);
            ws.binaryMessageHandler(this::audio);
            ws.textMessageHandler(this::control);
            send(new JsonObject().put("type", "Connected").put("request_id", requestId));
        }

        private void audio(Buffer buffer) {
            byte[] bytes = buffer.getBytes();
            chunkBytes.add(bytes.length);
            audioSeconds.add((mulaw ? bytes.length : bytes.length / 2.0) / sampleRate);
            recognizer.samples(mulaw ? SpeechFixtures.decodeMulaw(bytes, 0, bytes.length)
                    : SpeechFixtures.decodePcm16le(bytes, 0, bytes.length));
        }

        private void control(String text) {
            controlMessages.add(text);
            String type;
            try {
                type = new JsonObject(text).getString("type", "");
            } catch (RuntimeException e) {
                ws.close((short) 1008, "DATA-0000");
                return;
            }
            if ("CloseStream".equals(type)) {
                recognizer.endNow();
                ws.close((short) 1000);
            }
        }

        @Override
        public void started(double at) {
            if (mode == Failure.ERROR_ON_FIRST_TURN) {
                send(new JsonObject().put("type", "Error").put("code", "INTERNAL_SERVER_ERROR")
                        .put("description", "An internal server error occurred."));
                ws.close((short) 1011, "NET-0000");
                closed = true;
                return;
            }
            heard = List.of();
            eagerSent = false;
            turnInfo("StartOfTurn", List.of(), at);
        }

        @Override
        public void partial(List<String> words, double at) {
            heard = words;
        }

        @Override
        public void ended(String transcript, double start, double end) {
            turnInfo("EndOfTurn", transcript.isBlank() ? List.of() : List.of(transcript.split("\\s+")), end);
            turnIndex++;
            heard = List.of();
        }

        @Override
        public void window(double at) {
            if (eager && recognizer.inSegment() && !eagerSent && !heard.isEmpty()
                    && at - recognizer.lastSpeech() >= 0.2) {
                eagerSent = true;
                turnInfo("EagerEndOfTurn", heard, at);
            } else if (at - lastSentAt >= 0.25) {
                turnInfo("Update", heard, at);
            }
        }

        private void turnInfo(String event, List<String> words, double at) {
            lastSentAt = at;
            JsonArray wordArray = new JsonArray();
            words.forEach(word -> wordArray.add(new JsonObject().put("word", word).put("confidence", 0.97)));
            send(new JsonObject().put("type", "TurnInfo").put("request_id", requestId).put("event", event)
                    .put("turn_index", turnIndex).put("audio_window_start", 0.0)
                    .put("audio_window_end", Math.round(at * 1000) / 1000.0)
                    .put("transcript", String.join(" ", words)).put("words", wordArray)
                    .put("end_of_turn_confidence", "EndOfTurn".equals(event) ? 0.9 : 0.05));
        }

        private void send(JsonObject message) {
            if (closed) {
                return;
            }
            message.put("sequence_id", sequence++);
            String text = mode == Failure.GARBAGE ? "<html>" + message.getString("type") + "</html>" : message.encode();
            sent.add(text);
            ws.writeTextMessage(text);
        }
    }
}
