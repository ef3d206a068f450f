package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * OpenAI's transcription, local: the Realtime API in transcription mode and {@code POST /v1/audio/transcriptions}.
 *
 * <p>Realtime (OpenAI's "Realtime transcription" guide and the Realtime client and server event references, GA
 * interface; the {@code openai-python} types under {@code types/realtime}): {@code GET /v1/realtime?intent=transcription}
 * upgraded with {@code Authorization: Bearer <key>}. A wrong key is accepted and then refused as OpenAI does: an
 * {@code error} event ({@code invalid_request_error}, {@code invalid_api_key}) and the close 3000
 * {@code invalid_request_error.invalid_api_key}. The server sends {@code session.created}; the client's
 * {@code session.update} must be a {@code transcription} session whose input format is {@code audio/pcmu} or
 * {@code audio/pcm} at 24000 Hz ({@code session.updated} answers it; anything else is an {@code invalid_value}
 * error). {@code input_audio_buffer.append} carries base64 audio in that format; {@code input_audio_buffer.commit} ends
 * the utterance (an {@code input_audio_buffer_commit_empty} error when under 100 ms are buffered). With
 * {@code turn_detection} {@code server_vad} the server detects speech itself ({@code speech_started}, and after its
 * {@code silence_duration_ms} {@code speech_stopped} and the commit). Each committed utterance gets
 * {@code input_audio_buffer.committed}, one {@code conversation.item.input_audio_transcription.delta} per word, and
 * {@code .completed} with the transcript and the usage in seconds.
 *
 * <p>{@code /v1/audio/transcriptions} ("Create transcription"): {@code multipart/form-data} with {@code file} (here a
 * WAV of PCM16 mono), {@code model}, {@code language}, {@code response_format}; answers {@code {"text": …}}, or
 * OpenAI's error object with 401 for a wrong key.
 *
 * <p>Recognition is scripted ({@link ScriptedRecognizer}): the k-th utterance with speech, over the whole fake, is the
 * k-th transcript of the script. Failure modes: a refused key ({@link Failure#BAD_KEY}, whatever key is sent), 429
 * ({@code rate_limit_exceeded}), 500, a stream or request that never answers, an upgrade never answered, text that is
 * not JSON (and HTML for the HTTP answer), and a server error at the first commit ({@code server_error}, then close
 * 1011).
 */
public final class FakeOpenAiTranscription implements AutoCloseable {

    public enum Failure {
        NONE, BAD_KEY, RATE_LIMITED, REFUSE_500, HANG, HANG_UPGRADE, GARBAGE, SERVER_ERROR_ON_COMMIT
    }

    /** One {@code /audio/transcriptions} request, as received. */
    public record Request(String authorization, String model, String language, String responseFormat,
            int sampleRate, double seconds) {
    }

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;
    private volatile List<String> script = List.of();
    private final AtomicInteger next = new AtomicInteger();
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger commits = new AtomicInteger();
    private final DoubleAdder audioSeconds = new DoubleAdder();
    private final List<JsonObject> sessions = new CopyOnWriteArrayList<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private volatile String lastAuthorization;
    private volatile String lastBetaHeader;
    private volatile String lastIntent;

    public FakeOpenAiTranscription(String apiKey) {
        this.apiKey = apiKey;
        this.server = LoopbackServer.start(vertx, this::handle, "OpenAI transcription");
    }

    /** {@code http://127.0.0.1:<port>/v1}: the base URL, as {@code VOICE_OPENAI_API_URL} names OpenAI's. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.actualPort() + "/v1";
    }

    public FakeOpenAiTranscription script(String... transcripts) {
        this.script = List.of(transcripts);
        next.set(0);
        return this;
    }

    public FakeOpenAiTranscription failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    /** Realtime upgrade requests so far, refused ones included. */
    public int connections() {
        return connections.get();
    }

    public int commits() {
        return commits.get();
    }

    /** Seconds of audio received over the Realtime API. */
    public double audioSeconds() {
        return audioSeconds.sum();
    }

    /** Every {@code session} object of a {@code session.update} received. */
    public List<JsonObject> sessions() {
        return List.copyOf(sessions);
    }

    public JsonObject lastSession() {
        return sessions.isEmpty() ? null : sessions.get(sessions.size() - 1);
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public List<String> sent() {
        return List.copyOf(sent);
    }

    public String lastAuthorization() {
        return lastAuthorization;
    }

    /** The {@code OpenAI-Beta} header of the last upgrade (null: the GA interface). */
    public String lastBetaHeader() {
        return lastBetaHeader;
    }

    public String lastIntent() {
        return lastIntent;
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "OpenAI transcription");
    }

    private String nextTranscript() {
        int k = next.getAndIncrement();
        List<String> transcripts = script;
        return k < transcripts.size() ? transcripts.get(k).trim() : "";
    }

    private void handle(HttpServerRequest request) {
        if ("/v1/realtime".equals(request.path())) {
            realtime(request);
        } else if ("/v1/audio/transcriptions".equals(request.path())) {
            transcription(request);
        } else {
            request.response().setStatusCode(404).end();
        }
    }

    private static JsonObject error(String type, String code, String message) {
        return new JsonObject().put("message", message).put("type", type).put("param", (String) null)
                .put("code", code);
    }

    private static JsonObject badKey() {
        return error("invalid_request_error", "invalid_api_key", "Incorrect API key provided.");
    }

    private void httpError(HttpServerRequest request, int status, JsonObject error) {
        request.response().setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("error", error).encode());
    }

    // ---- the Realtime API -------------------------------------------------------------------------------------

    private void realtime(HttpServerRequest request) {
        connections.incrementAndGet();
        lastAuthorization = request.getHeader("Authorization");
        lastBetaHeader = request.getHeader("OpenAI-Beta");
        lastIntent = request.getParam("intent");
        Failure mode = failure;
        if (mode == Failure.RATE_LIMITED) {
            httpError(request, 429, error("requests", "rate_limit_exceeded", "Rate limit reached."));
            return;
        }
        if (mode == Failure.REFUSE_500) {
            httpError(request, 500, error("server_error", null, "The server had an error."));
            return;
        }
        if (mode == Failure.HANG_UPGRADE) {
            request.pause();
            return;
        }
        boolean authorized = ("Bearer " + apiKey).equals(lastAuthorization) && mode != Failure.BAD_KEY;
        request.toWebSocket().onSuccess(ws -> {
            if (!authorized) {
                ws.writeTextMessage(new JsonObject().put("type", "error").put("event_id", eventId())
                        .put("error", badKey()).encode());
                ws.close((short) 3000, "invalid_request_error.invalid_api_key");
            } else if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
            } else {
                new Session(ws, mode).start();
            }
        });
    }

    private static String eventId() {
        return "event_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    private final class Session implements ScriptedRecognizer.Events {
        private final ServerWebSocket ws;
        private final Failure mode;
        private boolean pcmu;
        private boolean serverVad;
        private ScriptedRecognizer recognizer;
        private double bufferedSeconds;
        private String itemId;
        private String previousItem;
        private boolean closed;

        Session(ServerWebSocket ws, Failure mode) {
            this.ws = ws;
            this.mode = mode;
        }

        void start() {
            ws.closeHandler(v -> closed = true);
            ws.textMessageHandler(this::event);
            ws.binaryMessageHandler(buffer -> ws.close((short) 1003, "binary frames are not accepted"));
            send(new JsonObject().put("type", "session.created").put("session", new JsonObject()
                    .put("type", "transcription").put("id", "sess_" + UUID.randomUUID().toString().substring(0, 8))
                    .put("object", "realtime.transcription_session")));
        }

        private void event(String text) {
            JsonObject event;
            try {
                event = new JsonObject(text);
            } catch (RuntimeException e) {
                invalid("invalid_json", "The event is not valid JSON.");
                return;
            }
            switch (event.getString("type", "")) {
                case "session.update" -> sessionUpdate(event.getJsonObject("session", new JsonObject()));
                case "input_audio_buffer.append" -> append(event.getString("audio", ""));
                case "input_audio_buffer.commit" -> commit();
                case "input_audio_buffer.clear" -> {
                    bufferedSeconds = 0;
                    send(new JsonObject().put("type", "input_audio_buffer.cleared"));
                }
                default -> invalid("invalid_value", "Unknown event type.");
            }
        }

        private void sessionUpdate(JsonObject session) {
            sessions.add(session);
            JsonObject input = session.getJsonObject("audio", new JsonObject()).getJsonObject("input",
                    new JsonObject());
            JsonObject format = input.getJsonObject("format", new JsonObject());
            String type = format.getString("type", "");
            if (!"transcription".equals(session.getString("type")) || !("audio/pcmu".equals(type)
                    || "audio/pcm".equals(type) && format.getInteger("rate", 24000) == 24000)) {
                invalid("invalid_value", "Invalid session: a transcription session in audio/pcmu or audio/pcm at"
                        + " 24000 Hz is expected.");
                return;
            }
            pcmu = "audio/pcmu".equals(type);
            JsonObject turnDetection = input.getJsonObject("turn_detection");
            serverVad = turnDetection != null && "server_vad".equals(turnDetection.getString("type"));
            long silenceMs = serverVad ? Math.max(250, turnDetection.getInteger("silence_duration_ms", 500))
                    : Long.MAX_VALUE / 4;
            recognizer = new ScriptedRecognizer(List.of(), pcmu ? 8000 : 24000, 500, silenceMs, 200, this);
            send(new JsonObject().put("type", "session.updated").put("session", session));
        }

        private void append(String base64) {
            if (recognizer == null) {
                invalid("invalid_value", "Send session.update before audio.");
                return;
            }
            byte[] audio;
            try {
                audio = Base64.getDecoder().decode(base64);
            } catch (IllegalArgumentException e) {
                invalid("invalid_value", "Invalid base64 audio.");
                return;
            }
            double seconds = pcmu ? audio.length / 8000.0 : audio.length / 48000.0;
            audioSeconds.add(seconds);
            bufferedSeconds += seconds;
            recognizer.samples(pcmu ? SpeechFixtures.decodeMulaw(audio, 0, audio.length)
                    : SpeechFixtures.decodePcm16le(audio, 0, audio.length));
        }

        private void commit() {
            commits.incrementAndGet();
            if (mode == Failure.SERVER_ERROR_ON_COMMIT) {
                send(new JsonObject().put("type", "error").put("error",
                        error("server_error", null, "The server had an error while processing your request.")));
                ws.close((short) 1011, "server_error");
                return;
            }
            if (recognizer != null && recognizer.inSegment()) {
                recognizer.endNow();
            } else if (bufferedSeconds >= 0.1) {
                utterance("");
            } else {
                invalid("input_audio_buffer_commit_empty",
                        "Error committing input audio buffer: buffer too small. Expected at least 100ms of audio.");
            }
        }

        @Override
        public void started(double at) {
            itemId = "item_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
            if (serverVad) {
                send(new JsonObject().put("type", "input_audio_buffer.speech_started")
                        .put("audio_start_ms", Math.round(at * 1000)).put("item_id", itemId));
            }
        }

        @Override
        public void partial(List<String> words, double at) {
        }

        @Override
        public void ended(String ignored, double start, double end) {
            if (serverVad) {
                send(new JsonObject().put("type", "input_audio_buffer.speech_stopped")
                        .put("audio_end_ms", Math.round(end * 1000)).put("item_id", itemId));
            }
            utterance(nextTranscript());
        }

        private void utterance(String transcript) {
            String item = itemId != null ? itemId : "item_" + UUID.randomUUID().toString().substring(0, 8);
            itemId = null;
            double seconds = bufferedSeconds;
            bufferedSeconds = 0;
            send(new JsonObject().put("type", "input_audio_buffer.committed").put("item_id", item)
                    .put("previous_item_id", previousItem));
            previousItem = item;
            String[] words = transcript.isBlank() ? new String[0] : transcript.split("\\s+");
            for (int i = 0; i < words.length; i++) {
                send(new JsonObject().put("type", "conversation.item.input_audio_transcription.delta")
                        .put("item_id", item).put("content_index", 0).put("delta", (i == 0 ? "" : " ") + words[i]));
            }
            send(new JsonObject().put("type", "conversation.item.input_audio_transcription.completed")
                    .put("item_id", item).put("content_index", 0).put("transcript", transcript)
                    .put("usage", new JsonObject().put("type", "duration").put("seconds", seconds)));
        }

        private void invalid(String code, String message) {
            send(new JsonObject().put("type", "error").put("error", error("invalid_request_error", code, message)));
        }

        private void send(JsonObject event) {
            if (closed) {
                return;
            }
            event.put("event_id", eventId());
            String text = mode == Failure.GARBAGE ? "<html>" + event.getString("type") + "</html>" : event.encode();
            sent.add(text);
            ws.writeTextMessage(text);
        }
    }

    // ---- per-utterance transcription --------------------------------------------------------------------------

    private void transcription(HttpServerRequest request) {
        if (request.method() != io.vertx.core.http.HttpMethod.POST) {
            request.response().setStatusCode(405).end();
            return;
        }
        String authorization = request.getHeader("Authorization");
        Failure mode = failure;
        request.setExpectMultipart(true);
        Buffer file = Buffer.buffer();
        request.uploadHandler(upload -> upload.handler(file::appendBuffer));
        request.endHandler(v -> {
            if (!("Bearer " + apiKey).equals(authorization) || mode == Failure.BAD_KEY) {
                httpError(request, 401, badKey());
                return;
            }
            switch (mode) {
                case RATE_LIMITED -> httpError(request, 429, error("requests", "rate_limit_exceeded",
                        "Rate limit reached."));
                case REFUSE_500, SERVER_ERROR_ON_COMMIT -> httpError(request, 500, error("server_error", null,
                        "The server had an error."));
                case HANG, HANG_UPGRADE -> {
                    // Never answered.
                }
                case GARBAGE -> request.response().putHeader("content-type", "text/html")
                        .end("<html>Bad gateway</html>");
                default -> answer(request, authorization, file.getBytes());
            }
        });
    }

    private void answer(HttpServerRequest request, String authorization, byte[] wav) {
        var form = request.formAttributes();
        if (form.get("model") == null || wav.length < 44) {
            httpError(request, 400, error("invalid_request_error", null, "model and file are required."));
            return;
        }
        ByteBuffer header = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);
        boolean riff = wav[0] == 'R' && wav[1] == 'I' && wav[2] == 'F' && wav[3] == 'F' && wav[8] == 'W';
        int channels = header.getShort(22);
        int rate = header.getInt(24);
        int bits = header.getShort(34);
        if (!riff || header.getShort(20) != 1 || channels != 1 || bits != 16) {
            httpError(request, 400, error("invalid_request_error", null, "The audio file could not be decoded."));
            return;
        }
        byte[] pcm = java.util.Arrays.copyOfRange(wav, 44, wav.length);
        requests.add(new Request(authorization, form.get("model"), form.get("language"),
                form.get("response_format"), rate, pcm.length / 2.0 / rate));
        boolean[] speech = new boolean[1];
        ScriptedRecognizer recognizer = new ScriptedRecognizer(List.of(), rate, 500, Long.MAX_VALUE / 4, 200,
                new ScriptedRecognizer.Events() {
                    @Override
                    public void started(double at) {
                        speech[0] = true;
                    }

                    @Override
                    public void partial(List<String> words, double at) {
                    }

                    @Override
                    public void ended(String transcript, double start, double end) {
                    }
                });
        recognizer.samples(SpeechFixtures.decodePcm16le(pcm, 0, pcm.length));
        String text = speech[0] ? nextTranscript() : "";
        request.response().putHeader("content-type", "application/json")
                .end(new JsonObject().put("text", text).encode());
    }
}
