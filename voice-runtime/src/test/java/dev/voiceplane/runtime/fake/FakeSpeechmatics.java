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
 * A local Speechmatics real-time server, for tests without the internet.
 *
 * <p>Protocol (Speechmatics' Realtime API reference and its AsyncAPI specification, speechmatics/docs
 * {@code spec/realtime.yaml}, and the "Turn detection" guide): {@code GET /v2} upgraded to a WebSocket with
 * {@code Authorization: Bearer <key>} (401 on the handshake otherwise). The first message must be
 * {@code StartRecognition} ({@code audio_format} {@code {type: raw, encoding: mulaw|pcm_s16le|pcm_f32le,
 * sample_rate}}, {@code transcription_config} with a {@code language}), answered by {@code RecognitionStarted}; then
 * binary {@code AddAudio} frames, each answered by {@code AudioAdded} with its {@code seq_no}; text messages
 * {@code ForceEndOfUtterance} and {@code EndOfStream} ({@code last_seq_no}: the rest of the transcript,
 * {@code EndOfTranscript}, close 1000). Audio before {@code RecognitionStarted}, a second {@code StartRecognition}, an
 * unknown message or one that is not JSON is an {@code Error} ({@code protocol_error} or {@code invalid_message}) and a
 * close 1003.
 *
 * <p>Recognition is scripted ({@link ScriptedRecognizer}: the k-th segment of a connection is the k-th transcript of its
 * script). Server messages: {@code AddPartialTranscript} every 200 ms of speech when {@code enable_partials} (the
 * words so far); at the segment's end an {@code AddTranscript} (its words and punctuation as {@code results}, the
 * text in {@code metadata.transcript}, ending with a space as Speechmatics writes it) then {@code EndOfUtterance}. A
 * segment ends at {@code ForceEndOfUtterance} (both messages {@code forced: true}; an {@code EndOfUtterance} alone
 * when nothing was heard), after {@code conversation_config.end_of_utterance_silence_trigger} of silence when asked,
 * and otherwise after {@code max_delay} of silence with an {@code AddTranscript} only.
 *
 * <p>Failure modes: a refused key (401 on the handshake, whatever key is sent), too many sessions ({@code Error}
 * {@code quota_exceeded}, then close 4005, Speechmatics' answer where an HTTP API answers 429), a handshake refused with
 * 500, a stream that never answers (not even {@code RecognitionStarted}) or whose handshake is never answered, text
 * that is not JSON, and a {@code job_error} at the first {@code ForceEndOfUtterance} (then close 4013).
 */
public final class FakeSpeechmatics implements AutoCloseable {

    public enum Failure {
        NONE, BAD_KEY, QUOTA_EXCEEDED, REFUSE_500, HANG, HANG_UPGRADE, GARBAGE, JOB_ERROR_ON_FORCE
    }

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;
    private volatile List<String> script = List.of();
    private final Map<Integer, List<String>> scripts = new ConcurrentHashMap<>();
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger forces = new AtomicInteger();
    private final DoubleAdder audioSeconds = new DoubleAdder();
    private final List<JsonObject> starts = new CopyOnWriteArrayList<>();
    private final List<String> controlMessages = new CopyOnWriteArrayList<>();
    private final List<Integer> chunkMillis = new CopyOnWriteArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private volatile String lastAuthorization;
    private volatile String lastPath;

    public FakeSpeechmatics(String apiKey) {
        this.apiKey = apiKey;
        this.server = LoopbackServer.start(vertx, this::handle, "Speechmatics");
    }

    /** {@code ws://127.0.0.1:<port>/v2}: the base URL, as {@code VOICE_SPEECHMATICS_URL} names the real one. */
    public String baseUrl() {
        return "ws://127.0.0.1:" + server.actualPort() + "/v2";
    }

    public FakeSpeechmatics script(String... transcripts) {
        this.script = List.of(transcripts);
        this.scripts.clear();
        return this;
    }

    /** The script of the {@code connection}-th accepted connection (0-based). */
    public FakeSpeechmatics scriptFor(int connection, String... transcripts) {
        scripts.put(connection, List.of(transcripts));
        return this;
    }

    public FakeSpeechmatics failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    public int connections() {
        return connections.get();
    }

    /** {@code ForceEndOfUtterance} messages received. */
    public int forces() {
        return forces.get();
    }

    public double audioSeconds() {
        return audioSeconds.sum();
    }

    /** Every {@code StartRecognition} received, in order. */
    public List<JsonObject> starts() {
        return List.copyOf(starts);
    }

    /** Every text message but {@code StartRecognition}, in order. */
    public List<String> controlMessages() {
        return List.copyOf(controlMessages);
    }

    /** Every {@code AddAudio}'s length in milliseconds, all connections. */
    public List<Integer> chunkMillis() {
        return List.copyOf(chunkMillis);
    }

    /** Every text message sent to clients. */
    public List<String> sent() {
        return List.copyOf(sent);
    }

    public String lastAuthorization() {
        return lastAuthorization;
    }

    public String lastPath() {
        return lastPath;
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "Speechmatics");
    }

    private void handle(HttpServerRequest request) {
        if (!"/v2".equals(request.path()) && !"/v2/".equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        connections.incrementAndGet();
        lastPath = request.path();
        lastAuthorization = request.getHeader("Authorization");
        Failure mode = failure;
        if (!("Bearer " + apiKey).equals(lastAuthorization) || mode == Failure.BAD_KEY) {
            request.response().setStatusCode(401).end("Unauthorized");
            return;
        }
        if (mode == Failure.REFUSE_500) {
            request.response().setStatusCode(500).end("Internal Server Error");
            return;
        }
        if (mode == Failure.HANG_UPGRADE) {
            request.pause();
            return;
        }
        List<String> transcripts = scripts.getOrDefault(accepted.getAndIncrement(), script);
        request.toWebSocket().onSuccess(ws -> {
            if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
            } else if (mode == Failure.QUOTA_EXCEEDED) {
                send(ws, false, new JsonObject().put("message", "Error").put("type", "quota_exceeded")
                        .put("reason", "Concurrent session quota exceeded"));
                ws.close((short) 4005, "quota_exceeded");
            } else {
                new Session(ws, transcripts, mode).start();
            }
        });
    }

    private void send(ServerWebSocket ws, boolean garbage, JsonObject message) {
        String text = garbage ? "<html>" + message.getString("message") + "</html>" : message.encode();
        sent.add(text);
        ws.writeTextMessage(text);
    }

    private final class Session implements ScriptedRecognizer.Events {
        private final ServerWebSocket ws;
        private final List<String> transcripts;
        private final Failure mode;
        private ScriptedRecognizer recognizer;
        private boolean mulaw;
        private int sampleRate;
        private boolean partials;
        private boolean endOfUtterances;
        private boolean forcing;
        private int seqNo;
        private boolean closed;

        Session(ServerWebSocket ws, List<String> transcripts, Failure mode) {
            this.ws = ws;
            this.transcripts = transcripts;
            this.mode = mode;
        }

        void start() {
            ws.closeHandler(v -> closed = true);
            ws.binaryMessageHandler(this::audio);
            ws.textMessageHandler(this::message);
        }

        private void message(String text) {
            JsonObject message;
            try {
                message = new JsonObject(text);
            } catch (RuntimeException e) {
                error("invalid_message", "Message is not JSON", 1003);
                return;
            }
            String name = message.getString("message", "");
            if ("StartRecognition".equals(name)) {
                startRecognition(message);
                return;
            }
            controlMessages.add(text);
            if (recognizer == null) {
                error("protocol_error", name + " before StartRecognition", 1003);
                return;
            }
            switch (name) {
                case "ForceEndOfUtterance" -> {
                    forces.incrementAndGet();
                    if (mode == Failure.JOB_ERROR_ON_FORCE) {
                        error("job_error", "Unable to process the job", 4013);
                        return;
                    }
                    forcing = true;
                    if (!recognizer.endNow()) {
                        send(endOfUtterance(true));
                    }
                    forcing = false;
                }
                case "EndOfStream" -> {
                    recognizer.endNow();
                    send(new JsonObject().put("message", "EndOfTranscript"));
                    ws.close((short) 1000);
                }
                case "SetRecognitionConfig", "GetSpeakers" -> {
                }
                default -> error("invalid_message", "Unknown message: " + name, 1003);
            }
        }

        private void startRecognition(JsonObject start) {
            if (recognizer != null) {
                error("protocol_error", "StartRecognition sent twice", 1003);
                return;
            }
            starts.add(start);
            JsonObject format = start.getJsonObject("audio_format", new JsonObject());
            JsonObject config = start.getJsonObject("transcription_config");
            String encoding = format.getString("encoding", "");
            if (!"raw".equals(format.getString("type")) || !List.of("mulaw", "pcm_s16le").contains(encoding)
                    || !(format.getValue("sample_rate") instanceof Integer)) {
                error("invalid_audio_type", "The fake takes raw mulaw or pcm_s16le with a sample_rate", 1003);
                return;
            }
            if (config == null || config.getString("language") == null) {
                error("invalid_config", "transcription_config.language is required", 1003);
                return;
            }
            mulaw = "mulaw".equals(encoding);
            sampleRate = format.getInteger("sample_rate");
            partials = config.getBoolean("enable_partials", false);
            Number trigger = config.getJsonObject("conversation_config", new JsonObject())
                    .getNumber("end_of_utterance_silence_trigger");
            endOfUtterances = trigger != null && trigger.doubleValue() > 0;
            Number maxDelay = config.getNumber("max_delay");
            long endpointMs = Math.round(1000 * (endOfUtterances ? trigger.doubleValue()
                    : maxDelay == null ? 4 : maxDelay.doubleValue()));
            recognizer = new ScriptedRecognizer(transcripts, sampleRate, 500, endpointMs, 200, this);
            send(new JsonObject().put("message", "RecognitionStarted").put("id", UUID.randomUUID().toString())
                    .put("orchestrator_version", "fake").put("language_pack_info", new JsonObject()
                            .put("adapted", false).put("itn", true).put("word_delimiter", " ")
                            .put("writing_direction", "left-to-right")));
        }

        private void audio(Buffer buffer) {
            if (recognizer == null) {
                error("protocol_error", "AddAudio before StartRecognition", 1003);
                return;
            }
            byte[] bytes = buffer.getBytes();
            int samples = mulaw ? bytes.length : bytes.length / 2;
            chunkMillis.add(samples * 1000 / sampleRate);
            audioSeconds.add((double) samples / sampleRate);
            send(new JsonObject().put("message", "AudioAdded").put("seq_no", ++seqNo));
            recognizer.samples(mulaw ? SpeechFixtures.decodeMulaw(bytes, 0, bytes.length)
                    : SpeechFixtures.decodePcm16le(bytes, 0, bytes.length));
        }

        @Override
        public void started(double at) {
        }

        @Override
        public void partial(List<String> words, double at) {
            if (partials) {
                send(transcript("AddPartialTranscript", String.join(" ", words), recognizer.segmentStart(), at,
                        false));
            }
        }

        @Override
        public void ended(String transcript, double start, double end) {
            send(transcript("AddTranscript", transcript, start, end, forcing));
            if (forcing || endOfUtterances) {
                send(endOfUtterance(forcing));
            }
        }

        private JsonObject endOfUtterance(boolean forced) {
            double at = recognizer.now();
            JsonObject message = new JsonObject().put("message", "EndOfUtterance")
                    .put("metadata", new JsonObject().put("start_time", at).put("end_time", at));
            return forced ? message.put("forced", true) : message;
        }

        /** A transcript message: words and punctuation as results, the text (ending with a space) in metadata. */
        private JsonObject transcript(String name, String text, double start, double end, boolean forced) {
            JsonArray results = new JsonArray();
            String[] words = text.isBlank() ? new String[0] : text.trim().split("\\s+");
            double step = words.length == 0 ? 0 : (end - start) / words.length;
            for (int i = 0; i < words.length; i++) {
                String word = words[i].replaceAll("[.,?!]+$", "");
                double wordStart = start + i * step;
                results.add(new JsonObject().put("type", "word").put("start_time", wordStart)
                        .put("end_time", wordStart + step).put("alternatives", new JsonArray().add(new JsonObject()
                                .put("content", word).put("confidence", 0.98).put("language", "en"))));
                if (word.length() < words[i].length()) {
                    results.add(new JsonObject().put("type", "punctuation").put("attaches_to", "previous")
                            .put("is_eos", true).put("start_time", wordStart + step).put("end_time", wordStart + step)
                            .put("alternatives", new JsonArray().add(new JsonObject()
                                    .put("content", words[i].substring(word.length())).put("confidence", 1.0))));
                }
            }
            JsonObject message = new JsonObject().put("message", name).put("format", "2.9")
                    .put("metadata", new JsonObject().put("start_time", start).put("end_time", end)
                            .put("transcript", text.isBlank() ? "" : text.trim() + " "))
                    .put("results", results);
            return forced ? message.put("forced", true) : message;
        }

        private void error(String type, String reason, int code) {
            send(new JsonObject().put("message", "Error").put("type", type).put("reason", reason));
            ws.close((short) code, type);
        }

        private void send(JsonObject message) {
            if (!closed) {
                FakeSpeechmatics.this.send(ws, mode == Failure.GARBAGE, message);
            }
        }
    }
}
