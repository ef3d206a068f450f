package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * A local Gladia live-transcription server (API v2), for tests without the internet.
 *
 * <p>Protocol (Gladia's API reference "Initiate a session", "Live WebSocket" and its AsyncAPI document, and the
 * generated types and live session of its JavaScript SDK, gladiaio/sdk): {@code POST /v2/live[?region=us-west|eu-west]}
 * with {@code x-gladia-key} (401 otherwise) and the session's configuration ({@code encoding} {@code wav/pcm},
 * {@code wav/alaw} or {@code wav/ulaw}, {@code bit_depth} 8 for the G.711 ones and 8 to 32 for PCM,
 * {@code sample_rate} 8000, 16000, 32000, 44100 or 48000, {@code channels}, {@code model} {@code solaria-1},
 * {@code endpointing}, {@code language_config}, {@code pre_processing}, {@code realtime_processing},
 * {@code messages_config}; a value outside these is 400) answers 201 {@code {id, created_at, url}}, the url
 * {@code ws://…/v2/live?token=…} carrying the session's token. The WebSocket takes binary audio chunks (or
 * {@code {"type":"audio_chunk","data":{"chunk":base64}}}) and {@code {"type":"stop_recording"}}; an unknown token is
 * refused with 401.
 *
 * <p>Recognition is scripted ({@link ScriptedRecognizer}: the k-th segment of a session is the k-th transcript of its
 * script). Messages, with {@code session_id} and {@code created_at}: each chunk acknowledged
 * ({@code audio_chunk}, {@code acknowledged: true}, its {@code byte_range} and {@code time_range}) when
 * {@code receive_acknowledgments}; {@code speech_start} and {@code speech_end} around a segment; partial
 * {@code transcript}s ({@code is_final: false}) every 200 ms of speech when {@code receive_partial_transcripts}; at the
 * segment's end, after {@code endpointing} seconds of silence (never under 300 ms, so that one sentence of espeak-ng's
 * stays one segment), the final {@code transcript} ({@code utterance.text} with Gladia's leading space). After
 * {@code stop_recording}: its acknowledgment, {@code end_recording}, {@code end_session}, close 1000.
 *
 * <p>Failure modes: a refused key (401 whatever key is sent), too many sessions (429), 500, a session request never
 * answered, an answer without a {@code url}, a socket that never answers (no acknowledgment), an upgrade never
 * answered, messages that are not JSON, and the session lost at the end of the first utterance (close 1011).
 */
public final class FakeGladia implements AutoCloseable {

    public enum Failure {
        NONE, BAD_KEY, TOO_MANY_SESSIONS, REFUSE_500, HANG_INIT, NO_URL, HANG, HANG_UPGRADE, GARBAGE, LOST_MID_CALL
    }

    private static final Set<Integer> RATES = Set.of(8000, 16000, 32000, 44100, 48000);

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;
    private volatile List<String> script = List.of();
    private volatile Failure failure = Failure.NONE;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final AtomicInteger initRequests = new AtomicInteger();
    private final AtomicInteger acknowledged = new AtomicInteger();
    private final DoubleAdder audioSeconds = new DoubleAdder();
    private final List<JsonObject> inits = new CopyOnWriteArrayList<>();
    private final List<Integer> chunkMillis = new CopyOnWriteArrayList<>();
    private final List<String> controlMessages = new CopyOnWriteArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private volatile String lastKey;
    private volatile String lastRegion;

    public FakeGladia(String apiKey) {
        this.apiKey = apiKey;
        this.server = LoopbackServer.start(vertx, this::handle, "Gladia");
    }

    /** {@code http://127.0.0.1:<port>}: the base URL, as {@code VOICE_GLADIA_URL} names the real one. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    public FakeGladia script(String... transcripts) {
        this.script = List.of(transcripts);
        return this;
    }

    public FakeGladia failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    public int initRequests() {
        return initRequests.get();
    }

    /** Audio chunks acknowledged, all sessions. */
    public int acknowledged() {
        return acknowledged.get();
    }

    public double audioSeconds() {
        return audioSeconds.sum();
    }

    /** Every session configuration received, in order. */
    public List<JsonObject> inits() {
        return List.copyOf(inits);
    }

    /** Every audio chunk's length in milliseconds, all sessions. */
    public List<Integer> chunkMillis() {
        return List.copyOf(chunkMillis);
    }

    /** Every text message received on the sockets, in order. */
    public List<String> controlMessages() {
        return List.copyOf(controlMessages);
    }

    public List<String> sent() {
        return List.copyOf(sent);
    }

    public String lastKey() {
        return lastKey;
    }

    /** The {@code region} of the most recent live-session request, or null. */
    public String lastRegion() {
        return lastRegion;
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "Gladia");
    }

    private void handle(HttpServerRequest request) {
        if (!"/v2/live".equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        if ("websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
            socket(request);
        } else if ("POST".equals(request.method().name())) {
            request.body().onSuccess(body -> init(request, request.response(), body));
        } else {
            request.response().setStatusCode(405).end();
        }
    }

    private void init(HttpServerRequest request, HttpServerResponse response, Buffer body) {
        initRequests.incrementAndGet();
        lastKey = request.getHeader("x-gladia-key");
        lastRegion = request.getParam("region");
        Failure mode = failure;
        if (!apiKey.equals(lastKey) || mode == Failure.BAD_KEY) {
            error(response, 401, "Invalid or missing x-gladia-key");
            return;
        }
        if (mode == Failure.TOO_MANY_SESSIONS) {
            error(response, 429, "Too many concurrent sessions");
            return;
        }
        if (mode == Failure.REFUSE_500) {
            error(response, 500, "Internal Server Error");
            return;
        }
        if (mode == Failure.HANG_INIT) {
            return;
        }
        JsonObject config;
        try {
            config = body.toJsonObject();
        } catch (RuntimeException e) {
            error(response, 400, "Body is not JSON");
            return;
        }
        inits.add(config);
        String encoding = config.getString("encoding", "wav/pcm");
        int bitDepth = config.getInteger("bit_depth", 16);
        int rate = config.getInteger("sample_rate", 16000);
        boolean g711 = encoding.equals("wav/ulaw") || encoding.equals("wav/alaw");
        if (!Set.of("wav/pcm", "wav/alaw", "wav/ulaw").contains(encoding) || (g711 && bitDepth != 8)
                || !RATES.contains(rate) || config.getInteger("channels", 1) < 1
                || !"solaria-1".equals(config.getString("model", "solaria-1"))) {
            error(response, 400, "Invalid session configuration");
            return;
        }
        if (!"wav/pcm".equals(encoding) && !"wav/ulaw".equals(encoding) || (!g711 && bitDepth != 16)) {
            error(response, 400, "The fake takes wav/ulaw 8-bit or wav/pcm 16-bit");
            return;
        }
        String id = UUID.randomUUID().toString();
        String token = UUID.randomUUID().toString();
        sessions.put(token, new Session(id, config, script, mode));
        JsonObject answer = new JsonObject().put("id", id).put("created_at", Instant.now().toString());
        if (mode != Failure.NO_URL) {
            answer.put("url", "ws://127.0.0.1:" + server.actualPort() + "/v2/live?token=" + token);
        }
        response.setStatusCode(201).putHeader("content-type", "application/json").end(answer.encode());
    }

    private void socket(HttpServerRequest request) {
        Session session = sessions.remove(String.valueOf(request.getParam("token")));
        if (session == null) {
            request.response().setStatusCode(401).end();
            return;
        }
        if (session.mode == Failure.HANG_UPGRADE) {
            request.pause();
            return;
        }
        request.toWebSocket().onSuccess(session::start);
    }

    private static void error(HttpServerResponse response, int status, String message) {
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("timestamp", Instant.now().toString()).put("path", "/v2/live")
                        .put("request_id", UUID.randomUUID().toString()).put("statusCode", status)
                        .put("message", message).encode());
    }

    private final class Session implements ScriptedRecognizer.Events {
        private final String id;
        private final Failure mode;
        private final boolean mulaw;
        private final int sampleRate;
        private final boolean partials;
        private final boolean acknowledgments;
        private final ScriptedRecognizer recognizer;
        private ServerWebSocket ws;
        private long bytes;
        private int utterance;
        private boolean closed;

        Session(String id, JsonObject config, List<String> transcripts, Failure mode) {
            this.id = id;
            this.mode = mode;
            this.mulaw = "wav/ulaw".equals(config.getString("encoding"));
            this.sampleRate = config.getInteger("sample_rate", 16000);
            JsonObject messages = config.getJsonObject("messages_config", new JsonObject());
            this.partials = messages.getBoolean("receive_partial_transcripts", false);
            this.acknowledgments = messages.getBoolean("receive_acknowledgments", false);
            Number endpointing = config.getNumber("endpointing");
            long endpointMs = Math.max(300, Math.round(1000 * (endpointing == null ? 0.05 : endpointing.doubleValue())));
            this.recognizer = new ScriptedRecognizer(transcripts, sampleRate, 500, endpointMs, 200, this);
        }

        void start(ServerWebSocket socket) {
            this.ws = socket;
            ws.closeHandler(v -> closed = true);
            if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
                return;
            }
            ws.binaryMessageHandler(buffer -> audio(buffer.getBytes()));
            ws.textMessageHandler(this::message);
        }

        private void message(String text) {
            controlMessages.add(text);
            JsonObject message;
            try {
                message = new JsonObject(text);
            } catch (RuntimeException e) {
                ws.close((short) 4400, "Invalid message");
                return;
            }
            switch (message.getString("type", "")) {
                case "audio_chunk" -> audio(Base64.getDecoder().decode(message.getJsonObject("data", new JsonObject())
                        .getString("chunk", "")));
                case "stop_recording" -> {
                    recognizer.endNow();
                    double seconds = (double) samples(bytes) / sampleRate;
                    send(event("stop_recording").put("acknowledged", true).putNull("error")
                            .put("data", new JsonObject().put("recording_duration", seconds)));
                    send(event("end_recording").put("data", new JsonObject().put("recording_duration", seconds)));
                    send(event("end_session"));
                    ws.close((short) 1000);
                }
                default -> ws.close((short) 4400, "Invalid message type");
            }
        }

        private void audio(byte[] chunk) {
            int samples = (int) samples(chunk.length);
            chunkMillis.add(samples * 1000 / sampleRate);
            audioSeconds.add((double) samples / sampleRate);
            long from = bytes;
            bytes += chunk.length;
            if (acknowledgments) {
                acknowledged.incrementAndGet();
                send(event("audio_chunk").put("acknowledged", true).putNull("error").put("data", new JsonObject()
                        .put("byte_range", new JsonArray().add(from).add(bytes))
                        .put("time_range", new JsonArray().add((double) samples(from) / sampleRate)
                                .add((double) samples(bytes) / sampleRate))));
            }
            recognizer.samples(mulaw ? SpeechFixtures.decodeMulaw(chunk, 0, chunk.length)
                    : SpeechFixtures.decodePcm16le(chunk, 0, chunk.length));
        }

        private long samples(long length) {
            return mulaw ? length : length / 2;
        }

        @Override
        public void started(double at) {
            send(event("speech_start").put("data", new JsonObject().put("time", at).put("channel", 0)));
        }

        @Override
        public void partial(List<String> words, double at) {
            if (partials) {
                send(transcript(String.join(" ", words), recognizer.segmentStart(), at, false));
            }
        }

        @Override
        public void ended(String transcript, double start, double end) {
            send(event("speech_end").put("data", new JsonObject().put("time", end).put("channel", 0)));
            send(transcript(transcript, start, end, true));
            utterance++;
            if (mode == Failure.LOST_MID_CALL) {
                ws.close((short) 1011, "Internal server error");
            }
        }

        private JsonObject transcript(String text, double start, double end, boolean isFinal) {
            JsonArray words = new JsonArray();
            String[] split = text.isBlank() ? new String[0] : text.trim().split("\\s+");
            double step = split.length == 0 ? 0 : (end - start) / split.length;
            for (int i = 0; i < split.length; i++) {
                words.add(new JsonObject().put("word", " " + split[i]).put("start", start + i * step)
                        .put("end", start + (i + 1) * step).put("confidence", 0.97));
            }
            return event("transcript").put("data", new JsonObject()
                    .put("id", String.format("00_%08d", utterance)).put("is_final", isFinal)
                    .put("utterance", new JsonObject().put("start", start).put("end", end).put("confidence", 0.97)
                            .put("channel", 0).put("words", words).put("text", text.isBlank() ? "" : " " + text.trim())
                            .put("language", "en")));
        }

        private JsonObject event(String type) {
            return new JsonObject().put("session_id", id).put("created_at", Instant.now().toString())
                    .put("type", type);
        }

        private void send(JsonObject message) {
            if (closed || ws == null) {
                return;
            }
            String text = mode == Failure.GARBAGE ? "<html>" + message.getString("type") + "</html>" : message.encode();
            sent.add(text);
            ws.writeTextMessage(text);
        }
    }
}
