package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The Gemini Live API for speech-to-speech, local (Google's Live API guide and its WebSocket reference,
 * {@code BidiGenerateContentClientMessage} and {@code ServerMessage}, and the google-genai SDKs' live types):
 * {@code GET /ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent} upgraded, with the key in
 * {@code x-goog-api-key} or {@code ?key=}. It is served by {@link FakeGemini}'s server, under the same base URL as the
 * chat, as Google serves both on one host.
 *
 * <p>Messages go out as binary frames holding JSON, as Google sends them. The first client message must be
 * {@code setup} with a {@code models/<id>} model and {@code responseModalities: [AUDIO]} (else the close 1007
 * "Request contains an invalid argument."); {@code setupComplete} answers it. A key it does not know is closed with
 * 1007 "API key not valid. Please pass a valid API key." after the upgrade, as Google does. {@code realtimeInput.audio}
 * must be {@code audio/pcm;rate=16000} (else 1007).
 *
 * <p>Automatic activity detection is emulated from the audio (energy over 20 ms windows, {@link ScriptedRecognizer}):
 * while the caller speaks, the words of the k-th transcript of the script come as
 * {@code serverContent.inputTranscription} (a growing prefix every 200 ms, the rest at the end); speech that starts
 * while a reply is being sent stops it with {@code serverContent.interrupted}; 500 ms of quiet ends the caller's turn
 * and the model replies. A {@code clientContent} with {@code turnComplete: true} is answered too (its last user text:
 * a text ending "nothing else: TEXT" says TEXT, as the runtime's scripted texts ask), one with {@code turnComplete:
 * false} is context only. A reply is either speech (espeak-ng's, PCM16 24 kHz, as {@code serverContent.modelTurn}
 * {@code inlineData} chunks of 100 ms interleaved with {@code outputTranscription} words, then
 * {@code generationComplete}, then {@code turnComplete} with {@code usageMetadata}) or a {@code toolCall}, after
 * which a {@code toolResponse} makes the model go on. Replies are sent at once unless {@link #delayMillis} (before
 * the first message) or {@link #paceMillis} (between chunks: a reply still being made when the caller speaks) is set.
 *
 * <p>Failures it plays: a refused key, an upgrade refused with 429 or 503, a session that never completes its setup,
 * frames that are not JSON, a close 1011 at the first reply, a close 1008 for a model it does not serve, and a session
 * that never replies.
 */
public final class FakeGeminiLive {

    /** The path of the Live API's WebSocket. */
    public static final String PATH = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";

    public enum Failure {
        NONE, BAD_KEY, RATE_LIMITED, REFUSE_503, HANG, GARBAGE, INTERNAL_ON_REPLY, MODEL_NOT_SERVED, SILENT
    }

    /** What a reply is asked in: the text asked (a clientContent's), the caller's last words, the tool's output. */
    public record Context(String asked, String callerText, String toolOutput) {
    }

    /** What the model answers. */
    public sealed interface Reply permits Say, Call {
    }

    public record Say(String text) implements Reply {
    }

    public record Call(String name, String arguments) implements Reply {
    }

    private static final String SAY = "nothing else: ";

    private final Vertx vertx;
    private final String apiKey;
    private volatile List<String> transcripts = List.of();
    private volatile Function<Context, Reply> script = context -> new Say("Okay.");
    private volatile Failure failure = Failure.NONE;
    private volatile long delayMillis;
    private volatile long paceMillis;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<JsonObject> setups = new CopyOnWriteArrayList<>();
    private final List<JsonObject> received = new CopyOnWriteArrayList<>();
    private final List<String> audioMimeTypes = new CopyOnWriteArrayList<>();
    private final AtomicInteger interruptions = new AtomicInteger();
    private volatile String lastApiKey;
    private volatile boolean keyInQuery;

    FakeGeminiLive(Vertx vertx, String apiKey) {
        this.vertx = vertx;
        this.apiKey = apiKey;
    }

    /** The caller's words, utterance by utterance, over each session. */
    public FakeGeminiLive transcripts(String... words) {
        this.transcripts = List.of(words);
        return this;
    }

    public FakeGeminiLive script(Function<Context, Reply> script) {
        this.script = script;
        return this;
    }

    public FakeGeminiLive failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    /** Waits this long before each reply's first message. */
    public FakeGeminiLive delayMillis(long delayMillis) {
        this.delayMillis = delayMillis;
        return this;
    }

    /** Waits this long between the 100 ms chunks of a reply (0: all at once). */
    public FakeGeminiLive paceMillis(long paceMillis) {
        this.paceMillis = paceMillis;
        return this;
    }

    public int connections() {
        return connections.get();
    }

    public List<JsonObject> setups() {
        return List.copyOf(setups);
    }

    /** The most recent {@code setup} received. */
    public JsonObject lastSetup() {
        return setups.isEmpty() ? null : setups.get(setups.size() - 1);
    }

    /** Every client message received, but the audio. */
    public List<JsonObject> received() {
        return List.copyOf(received);
    }

    /** The {@code mimeType} of every audio chunk received. */
    public List<String> audioMimeTypes() {
        return List.copyOf(audioMimeTypes);
    }

    /** How many {@code interrupted} it sent. */
    public int interruptions() {
        return interruptions.get();
    }

    public String lastApiKey() {
        return lastApiKey;
    }

    /** Whether the last key came as {@code ?key=} rather than the header. */
    public boolean keyInQuery() {
        return keyInQuery;
    }

    void handle(HttpServerRequest request) {
        connections.incrementAndGet();
        String header = request.getHeader("x-goog-api-key");
        keyInQuery = header == null && request.getParam("key") != null;
        lastApiKey = header != null ? header : request.getParam("key");
        Failure mode = failure;
        if (mode == Failure.RATE_LIMITED || mode == Failure.REFUSE_503) {
            int status = mode == Failure.RATE_LIMITED ? 429 : 503;
            request.response().setStatusCode(status).putHeader("content-type", "application/json")
                    .end(new JsonObject().put("error", new JsonObject().put("code", status)
                            .put("message", status == 429 ? "Resource has been exhausted (e.g. check quota)."
                                    : "The service is currently unavailable.")
                            .put("status", status == 429 ? "RESOURCE_EXHAUSTED" : "UNAVAILABLE")).encode());
            return;
        }
        boolean authorized = apiKey.equals(lastApiKey) && mode != Failure.BAD_KEY;
        request.toWebSocket().onSuccess(ws -> {
            if (!authorized) {
                ws.close((short) 1007, "API key not valid. Please pass a valid API key.");
            } else if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
            } else {
                new Session(ws, mode).start();
            }
        });
    }

    private static String id() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    private final class Session implements ScriptedRecognizer.Events {
        private final ServerWebSocket ws;
        private final Failure mode;
        private ScriptedRecognizer recognizer;
        private boolean setUp;
        private boolean closed;
        private boolean failedOnce;
        private int wordsSent;
        private String callerText;
        private String toolOutput;
        /** The reply being sent (its number), 0 when none. */
        private int replying;
        private int replies;

        Session(ServerWebSocket ws, Failure mode) {
            this.ws = ws;
            this.mode = mode;
        }

        void start() {
            ws.closeHandler(v -> closed = true);
            ws.textMessageHandler(this::message);
            ws.binaryMessageHandler(buffer -> message(buffer.toString()));
        }

        private void message(String text) {
            JsonObject message;
            try {
                message = new JsonObject(text);
            } catch (RuntimeException e) {
                close(1007, "Invalid JSON payload received.");
                return;
            }
            if (!setUp) {
                setup(message.getJsonObject("setup"));
                return;
            }
            JsonObject input = message.getJsonObject("realtimeInput");
            if (input != null && input.getJsonObject("audio") != null) {
                audio(input.getJsonObject("audio"));
                return;
            }
            received.add(message);
            if (message.getJsonObject("clientContent") != null) {
                clientContent(message.getJsonObject("clientContent"));
            } else if (message.getJsonObject("toolResponse") != null) {
                JsonArray responses = message.getJsonObject("toolResponse").getJsonArray("functionResponses",
                        new JsonArray());
                if (!responses.isEmpty()) {
                    Object result = responses.getJsonObject(0).getJsonObject("response", new JsonObject())
                            .getValue("result");
                    toolOutput = result == null ? "" : result.toString();
                }
                reply(null);
            } else if (input == null) {
                close(1007, "Request contains an invalid argument.");
            }
        }

        private void setup(JsonObject setup) {
            if (setup == null || !setup.getString("model", "").startsWith("models/")
                    || !new JsonArray().add("AUDIO").equals(setup.getJsonObject("generationConfig", new JsonObject())
                            .getJsonArray("responseModalities"))) {
                close(1007, "Request contains an invalid argument.");
                return;
            }
            setups.add(setup);
            if (mode == Failure.MODEL_NOT_SERVED) {
                // Google's reason, cut to the 123 bytes a close reason may hold.
                String reason = setup.getString("model") + " is not found for API version v1beta, or is not"
                        + " supported for bidiGenerateContent.";
                close(1008, reason.length() > 123 ? reason.substring(0, 123) : reason);
                return;
            }
            setUp = true;
            recognizer = new ScriptedRecognizer(transcripts, 16000, 500, 500, 200, this);
            send(new JsonObject().put("setupComplete", new JsonObject()));
        }

        private void audio(JsonObject audio) {
            String mime = audio.getString("mimeType", "");
            audioMimeTypes.add(mime);
            if (!"audio/pcm;rate=16000".equals(mime)) {
                close(1007, "Request contains an invalid argument.");
                return;
            }
            byte[] pcm;
            try {
                pcm = Base64.getDecoder().decode(audio.getString("data", ""));
            } catch (IllegalArgumentException e) {
                close(1007, "Request contains an invalid argument.");
                return;
            }
            recognizer.samples(SpeechFixtures.decodePcm16le(pcm, 0, pcm.length));
        }

        private void clientContent(JsonObject content) {
            if (!content.getBoolean("turnComplete", false)) {
                return;
            }
            String asked = null;
            JsonArray turns = content.getJsonArray("turns", new JsonArray());
            for (int i = turns.size() - 1; i >= 0 && asked == null; i--) {
                JsonObject turn = turns.getJsonObject(i);
                if ("user".equals(turn.getString("role", "user"))) {
                    JsonArray parts = turn.getJsonArray("parts", new JsonArray());
                    asked = parts.isEmpty() ? null : parts.getJsonObject(0).getString("text");
                }
            }
            reply(asked);
        }

        @Override
        public void started(double at) {
            wordsSent = 0;
            if (replying != 0) {
                replying = 0;
                interruptions.incrementAndGet();
                send(new JsonObject().put("serverContent", new JsonObject().put("interrupted", true)));
            }
        }

        @Override
        public void partial(List<String> words, double at) {
            heard(words.size(), words);
        }

        @Override
        public void ended(String transcript, double start, double end) {
            List<String> words = transcript.isBlank() ? List.of() : Arrays.asList(transcript.trim().split("\\s+"));
            heard(words.size(), words);
            callerText = transcript;
            reply(null);
        }

        /** Sends the words of the utterance not yet sent, up to {@code upTo}. */
        private void heard(int upTo, List<String> words) {
            if (upTo <= wordsSent) {
                return;
            }
            String text = String.join(" ", words.subList(wordsSent, upTo));
            send(new JsonObject().put("serverContent", new JsonObject().put("inputTranscription",
                    new JsonObject().put("text", (wordsSent == 0 ? "" : " ") + text))));
            wordsSent = upTo;
        }

        private void reply(String asked) {
            if (mode == Failure.SILENT) {
                return;
            }
            if (replying != 0) {
                replying = 0;
                interruptions.incrementAndGet();
                send(new JsonObject().put("serverContent", new JsonObject().put("interrupted", true)));
            }
            int number = ++replies;
            replying = number;
            Reply reply;
            if (asked != null && asked.contains(SAY)) {
                reply = new Say(asked.substring(asked.indexOf(SAY) + SAY.length()));
            } else {
                reply = script.apply(new Context(asked, callerText, toolOutput));
                toolOutput = null;
            }
            if (delayMillis > 0) {
                vertx.setTimer(delayMillis, t -> speak(number, reply));
            } else {
                speak(number, reply);
            }
        }

        private void speak(int number, Reply reply) {
            if (replying != number || closed) {
                return;
            }
            if (mode == Failure.INTERNAL_ON_REPLY && !failedOnce) {
                failedOnce = true;
                close(1011, "Internal error encountered.");
                return;
            }
            if (reply instanceof Call call) {
                replying = 0;
                send(new JsonObject().put("toolCall", new JsonObject().put("functionCalls", new JsonArray()
                        .add(new JsonObject().put("id", "function-call-" + id()).put("name", call.name())
                                .put("args", new JsonObject(call.arguments()))))));
                return;
            }
            String text = ((Say) reply).text();
            byte[] audio = SpeechFixtures.pcm24k(text);
            String[] words = text.trim().split("\\s+");
            int chunk = 4800; // 100 ms at 24 kHz
            int chunks = Math.max(1, (audio.length + chunk - 1) / chunk);
            chunk(number, 0, chunks, chunk, audio, words);
        }

        /** Sends chunk {@code i} of the reply (its words first), then the next, paced or at once. */
        private void chunk(int number, int i, int chunks, int size, byte[] audio, String[] words) {
            for (; i < chunks; i++) {
                if (replying != number || closed) {
                    return;
                }
                int wordsBy = Math.min(words.length, (int) Math.ceil((double) (i + 1) * words.length / chunks));
                for (int w = (int) Math.ceil((double) i * words.length / chunks); w < wordsBy; w++) {
                    send(new JsonObject().put("serverContent", new JsonObject().put("outputTranscription",
                            new JsonObject().put("text", (w == 0 ? "" : " ") + words[w]))));
                }
                byte[] part = Arrays.copyOfRange(audio, i * size, Math.min(audio.length, (i + 1) * size));
                send(new JsonObject().put("serverContent", new JsonObject().put("modelTurn", new JsonObject()
                        .put("parts", new JsonArray().add(new JsonObject().put("inlineData", new JsonObject()
                                .put("mimeType", "audio/pcm;rate=24000")
                                .put("data", Base64.getEncoder().encodeToString(part))))))));
                if (paceMillis > 0 && i + 1 < chunks) {
                    int next = i + 1;
                    vertx.setTimer(paceMillis, t -> chunk(number, next, chunks, size, audio, words));
                    return;
                }
            }
            if (replying != number || closed) {
                return;
            }
            replying = 0;
            send(new JsonObject().put("serverContent", new JsonObject().put("generationComplete", true)));
            send(new JsonObject().put("serverContent", new JsonObject().put("turnComplete", true))
                    .put("usageMetadata", new JsonObject().put("promptTokenCount", 100)
                            .put("responseTokenCount", 50).put("totalTokenCount", 150)
                            .put("promptTokensDetails", new JsonArray()
                                    .add(new JsonObject().put("modality", "TEXT").put("tokenCount", 60))
                                    .add(new JsonObject().put("modality", "AUDIO").put("tokenCount", 40)))
                            .put("responseTokensDetails", new JsonArray()
                                    .add(new JsonObject().put("modality", "AUDIO").put("tokenCount", 50)))));
        }

        private void close(int code, String reason) {
            if (!closed) {
                closed = true;
                ws.close((short) code, reason);
            }
        }

        private void send(JsonObject message) {
            if (closed) {
                return;
            }
            if (mode == Failure.GARBAGE) {
                ws.writeTextMessage("<html>" + message.fieldNames() + "</html>");
                return;
            }
            ws.writeBinaryMessage(Buffer.buffer(message.encode()));
        }
    }
}
