package dev.voiceplane.runtime.fake;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * ElevenLabs' realtime speech-to-text (Scribe), served by {@link FakeElevenLabs} beside its speech, for tests without
 * the internet.
 *
 * <p>Protocol (ElevenLabs' API reference "Realtime" speech-to-text, its "Event reference" and "Commit strategies"
 * guides, and the realtime module and generated types of its Python SDK): {@code GET /v1/speech-to-text/realtime
 * ?model_id=scribe_v2_realtime&audio_format=ulaw_8000|pcm_8000|pcm_16000|…&commit_strategy=manual|vad
 * &language_code=…&vad_silence_threshold_secs=…}, upgraded to a WebSocket, key in {@code xi-api-key}. A wrong key is
 * accepted and then refused as ElevenLabs does: {@code {"message_type":"auth_error","error":"You must be authenticated
 * to use this endpoint."}}, then a close. The client sends JSON text frames {@code {"message_type":"input_audio_chunk",
 * "audio_base_64","commit","sample_rate"}}; a frame that is not that, binary audio, a sample rate other than the
 * format's, or a model other than {@code scribe_v2_realtime} is an {@code input_error} and a close.
 *
 * <p>Recognition is scripted ({@link ScriptedRecognizer}: the k-th segment of a connection is the k-th transcript of its
 * script). Server messages: {@code session_started} with the session's config at once; {@code partial_transcript}
 * every 200 ms of speech (the words so far); {@code committed_transcript} (the segment's text, {@code ""} when nothing
 * was heard) when a chunk carries {@code "commit":true}, or, with {@code commit_strategy=vad}, after
 * {@code vad_silence_threshold_secs} of silence (1.5 s by default).
 *
 * <p>Failure modes: a refused key ({@link Failure#BAD_KEY}, whatever key is sent), {@code quota_exceeded} and
 * {@code rate_limited} at once after the upgrade (then a close 1008), an upgrade refused with 500, a stream that never
 * answers (not even {@code session_started}) or whose upgrade is never answered, text that is not JSON, and a
 * {@code transcriber_error} at the first commit (then a close 1011), as a session lost mid-call.
 */
public final class FakeElevenLabsScribe {

    public enum Failure {
        NONE, BAD_KEY, QUOTA_EXCEEDED, RATE_LIMITED, REFUSE_500, HANG, HANG_UPGRADE, GARBAGE, ERROR_ON_COMMIT
    }

    static final String PATH = "/v1/speech-to-text/realtime";
    private static final Map<String, Integer> RATES = Map.of("pcm_8000", 8000, "pcm_16000", 16000, "pcm_22050",
            22050, "pcm_24000", 24000, "pcm_44100", 44100, "pcm_48000", 48000, "ulaw_8000", 8000);

    private final String apiKey;
    private volatile List<String> script = List.of();
    private final Map<Integer, List<String>> scripts = new ConcurrentHashMap<>();
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger commits = new AtomicInteger();
    private final DoubleAdder audioSeconds = new DoubleAdder();
    private final List<Integer> sampleRates = new CopyOnWriteArrayList<>();
    private final List<Integer> chunkMillis = new CopyOnWriteArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private volatile Map<String, List<String>> lastQuery = Map.of();
    private volatile String lastApiKey;

    FakeElevenLabsScribe(String apiKey) {
        this.apiKey = apiKey;
    }

    public FakeElevenLabsScribe script(String... transcripts) {
        this.script = List.of(transcripts);
        this.scripts.clear();
        return this;
    }

    /** The script of the {@code connection}-th accepted connection (0-based). */
    public FakeElevenLabsScribe scriptFor(int connection, String... transcripts) {
        scripts.put(connection, List.of(transcripts));
        return this;
    }

    public FakeElevenLabsScribe failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    /** Upgrade requests so far, refused ones included. */
    public int connections() {
        return connections.get();
    }

    /** Chunks that carried {@code "commit":true}. */
    public int commits() {
        return commits.get();
    }

    public double audioSeconds() {
        return audioSeconds.sum();
    }

    /** The {@code sample_rate} of every audio chunk, all connections. */
    public List<Integer> sampleRates() {
        return List.copyOf(sampleRates);
    }

    /** Every audio chunk's length in milliseconds (commits without audio excepted), all connections. */
    public List<Integer> chunkMillis() {
        return List.copyOf(chunkMillis);
    }

    /** Every text message sent to clients. */
    public List<String> sent() {
        return List.copyOf(sent);
    }

    public String lastQuery(String name) {
        return ScriptedRecognizer.first(lastQuery, name, null);
    }

    public String lastApiKey() {
        return lastApiKey;
    }

    /** One upgrade request on {@link #PATH}. */
    void handle(HttpServerRequest request) {
        connections.incrementAndGet();
        lastApiKey = request.getHeader("xi-api-key");
        Map<String, List<String>> query = ScriptedRecognizer.parseQuery(request.query());
        lastQuery = query;
        Failure mode = failure;
        if (mode == Failure.REFUSE_500) {
            request.response().setStatusCode(500).putHeader("content-type", "application/json")
                    .end(new JsonObject().put("detail", new JsonObject().put("status", "internal_error")
                            .put("message", "An internal error occurred")).encode());
            return;
        }
        if (mode == Failure.HANG_UPGRADE) {
            request.pause();
            return;
        }
        boolean authorized = apiKey.equals(lastApiKey) && mode != Failure.BAD_KEY;
        List<String> transcripts = authorized ? scripts.getOrDefault(accepted.getAndIncrement(), script) : List.of();
        request.toWebSocket().onSuccess(ws -> {
            if (!authorized) {
                error(ws, "auth_error", "You must be authenticated to use this endpoint.", 1008);
            } else if (mode == Failure.QUOTA_EXCEEDED) {
                error(ws, "quota_exceeded", "This request exceeds your quota.", 1008);
            } else if (mode == Failure.RATE_LIMITED) {
                error(ws, "rate_limited", "Too many concurrent requests.", 1008);
            } else if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
            } else {
                new Session(ws, query, transcripts, mode).start();
            }
        });
    }

    private void error(ServerWebSocket ws, String type, String error, int code) {
        send(ws, false, new JsonObject().put("message_type", type).put("error", error));
        ws.close((short) code, type);
    }

    private void send(ServerWebSocket ws, boolean garbage, JsonObject message) {
        String text = garbage ? "<html>" + message.getString("message_type") + "</html>" : message.encode();
        sent.add(text);
        ws.writeTextMessage(text);
    }

    private final class Session implements ScriptedRecognizer.Events {
        private final ServerWebSocket ws;
        private final Failure mode;
        private final String model;
        private final String audioFormat;
        private final Integer sampleRate;
        private final boolean manual;
        private final String language;
        private final ScriptedRecognizer recognizer;
        private boolean closed;

        Session(ServerWebSocket ws, Map<String, List<String>> query, List<String> transcripts, Failure mode) {
            this.ws = ws;
            this.mode = mode;
            this.model = ScriptedRecognizer.first(query, "model_id", null);
            this.audioFormat = ScriptedRecognizer.first(query, "audio_format", "pcm_16000");
            this.sampleRate = RATES.get(audioFormat);
            this.manual = !"vad".equals(ScriptedRecognizer.first(query, "commit_strategy", "manual"));
            this.language = ScriptedRecognizer.first(query, "language_code", null);
            double silence = Double.parseDouble(ScriptedRecognizer.first(query, "vad_silence_threshold_secs", "1.5"));
            this.recognizer = new ScriptedRecognizer(transcripts, sampleRate == null ? 16000 : sampleRate, 500,
                    manual ? Long.MAX_VALUE / 4 : Math.round(silence * 1000), 200, this);
        }

        void start() {
            ws.closeHandler(v -> closed = true);
            if (!"scribe_v2_realtime".equals(model)) {
                error(ws, "input_error", "Invalid model_id: " + model, 1008);
                return;
            }
            if (sampleRate == null) {
                error(ws, "input_error", "Invalid audio_format: " + audioFormat, 1008);
                return;
            }
            ws.binaryMessageHandler(buffer -> error(ws, "input_error", "Audio must be sent as input_audio_chunk", 1008));
            ws.textMessageHandler(this::message);
            JsonObject config = new JsonObject().put("sample_rate", sampleRate).put("audio_format", audioFormat)
                    .put("model_id", model).put("commit_strategy", manual ? "manual" : "vad")
                    .put("enable_logging", true).put("include_timestamps", false);
            if (language != null) {
                config.put("language_code", language);
            }
            send(new JsonObject().put("message_type", "session_started")
                    .put("session_id", UUID.randomUUID().toString().replace("-", "")).put("config", config));
        }

        private void message(String text) {
            JsonObject message;
            try {
                message = new JsonObject(text);
            } catch (RuntimeException e) {
                error(ws, "input_error", "Invalid JSON", 1008);
                return;
            }
            if (!"input_audio_chunk".equals(message.getString("message_type"))) {
                error(ws, "input_error", "Unknown message_type: " + message.getString("message_type"), 1008);
                return;
            }
            Integer rate = message.getInteger("sample_rate");
            if (rate != null && !rate.equals(sampleRate)) {
                error(ws, "input_error", "sample_rate " + rate + " does not match " + audioFormat, 1008);
                return;
            }
            byte[] audio;
            try {
                audio = Base64.getDecoder().decode(message.getString("audio_base_64", ""));
            } catch (IllegalArgumentException e) {
                error(ws, "input_error", "audio_base_64 is not base64", 1008);
                return;
            }
            if (audio.length > 0) {
                boolean mulaw = audioFormat.startsWith("ulaw");
                int samples = mulaw ? audio.length : audio.length / 2;
                sampleRates.add(rate);
                chunkMillis.add(samples * 1000 / sampleRate);
                audioSeconds.add((double) samples / sampleRate);
                recognizer.samples(mulaw ? SpeechFixtures.decodeMulaw(audio, 0, audio.length)
                        : SpeechFixtures.decodePcm16le(audio, 0, audio.length));
            }
            if (message.getBoolean("commit", false)) {
                commits.incrementAndGet();
                if (mode == Failure.ERROR_ON_COMMIT) {
                    error(ws, "transcriber_error", "Internal transcription error", 1011);
                    return;
                }
                if (!recognizer.endNow()) {
                    send(new JsonObject().put("message_type", "committed_transcript").put("text", ""));
                }
            }
        }

        @Override
        public void started(double at) {
        }

        @Override
        public void partial(List<String> words, double at) {
            send(new JsonObject().put("message_type", "partial_transcript").put("text", String.join(" ", words)));
        }

        @Override
        public void ended(String transcript, double start, double end) {
            send(new JsonObject().put("message_type", "committed_transcript").put("text", transcript));
        }

        private void send(JsonObject message) {
            if (!closed) {
                FakeElevenLabsScribe.this.send(ws, mode == Failure.GARBAGE, message);
            }
        }
    }
}
