package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * OpenAI's Realtime API for speech-to-speech, local (OpenAI's "Realtime conversations" guide and the Realtime client and
 * server event references, GA interface; the {@code openai-python} types under {@code types/realtime}):
 * {@code GET /v1/realtime?model=<id>} upgraded with {@code Authorization: Bearer <key>}.
 *
 * <p>A wrong key is accepted and then refused as OpenAI does: an {@code error} event ({@code invalid_request_error},
 * {@code invalid_api_key}) and the close 3000 {@code invalid_request_error.invalid_api_key}. The server sends
 * {@code session.created}; {@code session.update} must be a {@code realtime} session whose input and output formats
 * are both {@code audio/pcmu} or both {@code audio/pcm} at 24000 Hz ({@code session.updated} answers it; anything else
 * is an {@code invalid_value} error). {@code input_audio_buffer.append} carries base64 audio in that format.
 *
 * <p>Server VAD is emulated from the audio received (energy over 20 ms windows, {@link ScriptedRecognizer}): speech
 * sends {@code input_audio_buffer.speech_started} (and with {@code interrupt_response} cancels a reply still being
 * generated), {@code silence_duration_ms} of quiet {@code speech_stopped}, {@code committed}, the user item and
 * {@code conversation.item.input_audio_transcription.completed} with the k-th transcript of the script; with
 * {@code create_response} a reply follows. With {@code turn_detection: null} no speech events are sent:
 * {@code input_audio_buffer.commit} ends the segment (committed, the user item and its transcription) and
 * {@code input_audio_buffer.clear} drops it (its transcript stays the next segment's). A reply ({@code response.create}, or the server's own) is
 * {@code response.created} (echoing {@code metadata}), then either an audio message (the reply's words spoken by
 * espeak-ng, in the session's format, as {@code response.output_audio.delta} chunks of 100 ms interleaved with one
 * {@code response.output_audio_transcript.delta} per word, then the {@code .done} events and
 * {@code response.output_item.done}) or a function call ({@code response.function_call_arguments.done}), then
 * {@code response.done} with its output and usage (a finished reply: 100 input tokens, 20 text and 80 audio, of them
 * 16 and 48 cached, and 50 output tokens, 10 text and 40 audio; a cancelled one: 10 input tokens, 2 text and 8
 * audio), detailed as OpenAI details it. Only one reply at a time: another {@code response.create} is
 * the error {@code conversation_already_has_active_response}; {@code response.cancel} without a reply under way is
 * {@code response_cancel_not_active}. {@code conversation.item.truncate} is recorded and answered with
 * {@code conversation.item.truncated}; {@code conversation.item.create} items (function call outputs, messages) are
 * recorded. Replies are generated at once (zero delay) unless {@link #delayMillis} is set.
 *
 * <p>What the model says: a reply whose instructions end with "nothing else: TEXT" says TEXT (the runtime's
 * scripted texts); any other is the script's answer to {@link Context}. Failure modes: a refused key, 429, 500, a
 * session that never answers, text that is not JSON, and a server error at the first reply.
 */
public final class FakeOpenAiRealtime implements AutoCloseable {

    public enum Failure {
        NONE, BAD_KEY, RATE_LIMITED, REFUSE_500, HANG, GARBAGE, SERVER_ERROR_ON_RESPONSE
    }

    /** What a reply is asked in: its own instructions, the caller's last words, the tool output not yet answered. */
    public record Context(String instructions, String callerText, String toolOutput) {
    }

    /** What the model answers. */
    public sealed interface Reply permits Say, Call {
    }

    /** Speaks {@code text}. */
    public record Say(String text) implements Reply {
    }

    /** Calls the function {@code name} with {@code arguments} (JSON text). */
    public record Call(String name, String arguments) implements Reply {
    }

    /** A {@code conversation.item.truncate} received. */
    public record Truncation(String itemId, int contentIndex, long audioEndMs) {
    }

    private static final String SAY = "nothing else: ";

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;
    private volatile List<String> transcripts = List.of();
    private volatile Function<Context, Reply> script = context -> new Say("Okay.");
    private volatile Failure failure = Failure.NONE;
    private volatile long delayMillis;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<JsonObject> sessions = new CopyOnWriteArrayList<>();
    private final List<JsonObject> received = new CopyOnWriteArrayList<>();
    private final List<Truncation> truncations = new CopyOnWriteArrayList<>();
    private final List<JsonObject> items = new CopyOnWriteArrayList<>();
    private final List<JsonObject> usages = new CopyOnWriteArrayList<>();
    private final java.util.Map<String, Long> audioMillis = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile String lastAuthorization;
    private volatile String lastBetaHeader;
    private volatile String lastModel;

    public FakeOpenAiRealtime(String apiKey) {
        this.apiKey = apiKey;
        this.server = LoopbackServer.start(vertx, this::handle, "OpenAI Realtime");
    }

    /** {@code http://127.0.0.1:<port>/v1}: the base URL, as {@code VOICE_OPENAI_API_URL} names OpenAI's. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.actualPort() + "/v1";
    }

    /** The caller's words, utterance by utterance, over each session. */
    public FakeOpenAiRealtime transcripts(String... words) {
        this.transcripts = List.of(words);
        return this;
    }

    public FakeOpenAiRealtime script(Function<Context, Reply> script) {
        this.script = script;
        return this;
    }

    public FakeOpenAiRealtime failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    /** Waits this long before each reply's first event. */
    public FakeOpenAiRealtime delayMillis(long delayMillis) {
        this.delayMillis = delayMillis;
        return this;
    }

    public int connections() {
        return connections.get();
    }

    public List<JsonObject> sessions() {
        return List.copyOf(sessions);
    }

    public JsonObject lastSession() {
        return sessions.isEmpty() ? null : sessions.get(sessions.size() - 1);
    }

    /** Every client event received, but the audio appends. */
    public List<JsonObject> received() {
        return List.copyOf(received);
    }

    public List<Truncation> truncations() {
        return List.copyOf(truncations);
    }

    /** The items of every {@code conversation.item.create} received. */
    public List<JsonObject> items() {
        return List.copyOf(items);
    }

    /** The {@code usage} of every {@code response.done} sent, in order: what the runtime is told the replies cost. */
    public List<JsonObject> usages() {
        return List.copyOf(usages);
    }

    /** The milliseconds of audio the reply's item {@code itemId} had (0: none such). */
    public long audioMillis(String itemId) {
        return audioMillis.getOrDefault(itemId, 0L);
    }

    public String lastAuthorization() {
        return lastAuthorization;
    }

    public String lastBetaHeader() {
        return lastBetaHeader;
    }

    public String lastModel() {
        return lastModel;
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "OpenAI Realtime");
    }

    private void handle(HttpServerRequest request) {
        if (!"/v1/realtime".equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        connections.incrementAndGet();
        lastAuthorization = request.getHeader("Authorization");
        lastBetaHeader = request.getHeader("OpenAI-Beta");
        lastModel = request.getParam("model");
        Failure mode = failure;
        if (mode == Failure.RATE_LIMITED) {
            httpError(request, 429, error("requests", "rate_limit_exceeded", "Rate limit reached."));
            return;
        }
        if (mode == Failure.REFUSE_500) {
            httpError(request, 500, error("server_error", null, "The server had an error."));
            return;
        }
        boolean authorized = ("Bearer " + apiKey).equals(lastAuthorization) && mode != Failure.BAD_KEY;
        request.toWebSocket().onSuccess(ws -> {
            if (!authorized) {
                ws.writeTextMessage(new JsonObject().put("type", "error").put("event_id", eventId())
                        .put("error", error("invalid_request_error", "invalid_api_key", "Incorrect API key provided."))
                        .encode());
                ws.close((short) 3000, "invalid_request_error.invalid_api_key");
            } else if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
            } else {
                new Session(ws, mode, lastModel).start();
            }
        });
    }

    private static JsonObject error(String type, String code, String message) {
        return new JsonObject().put("message", message).put("type", type).put("param", (String) null)
                .put("code", code);
    }

    private static void httpError(HttpServerRequest request, int status, JsonObject error) {
        request.response().setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("error", error).encode());
    }

    private static String eventId() {
        return "event_" + id();
    }

    private static String id() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    private final class Session implements ScriptedRecognizer.Events {
        private final ServerWebSocket ws;
        private final Failure mode;
        private final String model;
        private boolean pcmu;
        private boolean createResponse;
        private boolean interruptResponse;
        /** {@code turn_detection: null}: no speech events; the client commits and clears the buffer. */
        private boolean manual;
        private ScriptedRecognizer recognizer;
        private String speechItem;
        private String callerText;
        private String toolOutput;
        private String responding;
        private boolean closed;
        private boolean failedOnce;

        Session(ServerWebSocket ws, Failure mode, String model) {
            this.ws = ws;
            this.mode = mode;
            this.model = model;
        }

        void start() {
            ws.closeHandler(v -> closed = true);
            ws.textMessageHandler(this::event);
            ws.binaryMessageHandler(buffer -> ws.close((short) 1003, "binary frames are not accepted"));
            send(new JsonObject().put("type", "session.created").put("session", new JsonObject()
                    .put("type", "realtime").put("object", "realtime.session").put("id", "sess_" + id())
                    .put("model", model)));
        }

        private void event(String text) {
            JsonObject event;
            try {
                event = new JsonObject(text);
            } catch (RuntimeException e) {
                invalid("invalid_json", "The event is not valid JSON.");
                return;
            }
            String type = event.getString("type", "");
            if (!"input_audio_buffer.append".equals(type)) {
                received.add(event);
            }
            switch (type) {
                case "session.update" -> sessionUpdate(event.getJsonObject("session", new JsonObject()));
                case "input_audio_buffer.append" -> append(event.getString("audio", ""));
                case "response.create" -> create(event.getJsonObject("response", new JsonObject()));
                case "input_audio_buffer.commit" -> {
                    if (recognizer == null || !recognizer.endNow()) {
                        ended("", 0, 0); // a buffer of silence: an empty transcript
                    }
                }
                case "input_audio_buffer.clear" -> {
                    if (recognizer != null) {
                        recognizer.discard();
                    }
                    speechItem = null;
                    send(new JsonObject().put("type", "input_audio_buffer.cleared"));
                }
                case "response.cancel" -> {
                    if (responding == null) {
                        invalid("response_cancel_not_active", "Cancellation failed: no active response found");
                    } else {
                        cancelled();
                    }
                }
                case "conversation.item.truncate" -> {
                    long end = event.getLong("audio_end_ms", -1L);
                    truncations.add(new Truncation(event.getString("item_id"), event.getInteger("content_index", 0),
                            end));
                    send(new JsonObject().put("type", "conversation.item.truncated")
                            .put("item_id", event.getString("item_id")).put("content_index", 0)
                            .put("audio_end_ms", end));
                }
                case "conversation.item.create" -> {
                    JsonObject item = event.getJsonObject("item", new JsonObject());
                    items.add(item);
                    if ("function_call_output".equals(item.getString("type"))) {
                        toolOutput = item.getString("output");
                    }
                    String itemId = item.getString("id", "item_" + id());
                    send(new JsonObject().put("type", "conversation.item.added")
                            .put("item", item.copy().put("id", itemId)));
                }
                default -> invalid("invalid_value", "Unknown event type " + type + ".");
            }
        }

        private void sessionUpdate(JsonObject session) {
            sessions.add(session);
            JsonObject audio = session.getJsonObject("audio", new JsonObject());
            JsonObject input = audio.getJsonObject("input", new JsonObject());
            JsonObject in = input.getJsonObject("format", new JsonObject());
            JsonObject out = audio.getJsonObject("output", new JsonObject()).getJsonObject("format", new JsonObject());
            boolean mulaw = "audio/pcmu".equals(in.getString("type")) && "audio/pcmu".equals(out.getString("type"));
            boolean pcm = "audio/pcm".equals(in.getString("type")) && in.getInteger("rate", 24000) == 24000
                    && "audio/pcm".equals(out.getString("type")) && out.getInteger("rate", 24000) == 24000;
            if (!"realtime".equals(session.getString("type")) || !(mulaw || pcm)) {
                invalid("invalid_value", "Invalid session: a realtime session in audio/pcmu or audio/pcm at 24000 Hz"
                        + " is expected.");
                return;
            }
            pcmu = mulaw;
            JsonObject turnDetection = input.getJsonObject("turn_detection");
            boolean serverVad = turnDetection != null && "server_vad".equals(turnDetection.getString("type"));
            manual = !serverVad;
            createResponse = serverVad && turnDetection.getBoolean("create_response", true);
            interruptResponse = serverVad && turnDetection.getBoolean("interrupt_response", true);
            long silenceMs = serverVad ? Math.max(200, turnDetection.getInteger("silence_duration_ms", 500))
                    : Long.MAX_VALUE / 4;
            recognizer = new ScriptedRecognizer(transcripts, pcmu ? 8000 : 24000, 500, silenceMs, 200, this);
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
            recognizer.samples(pcmu ? SpeechFixtures.decodeMulaw(audio, 0, audio.length)
                    : SpeechFixtures.decodePcm16le(audio, 0, audio.length));
        }

        @Override
        public void started(double at) {
            speechItem = "item_" + id();
            if (manual) {
                return;
            }
            send(new JsonObject().put("type", "input_audio_buffer.speech_started")
                    .put("audio_start_ms", Math.round(at * 1000)).put("item_id", speechItem));
            if (interruptResponse && responding != null) {
                cancelled();
            }
        }

        @Override
        public void partial(List<String> words, double at) {
        }

        @Override
        public void ended(String transcript, double start, double end) {
            String item = speechItem == null ? "item_" + id() : speechItem;
            speechItem = null;
            if (!manual) {
                send(new JsonObject().put("type", "input_audio_buffer.speech_stopped")
                        .put("audio_end_ms", Math.round(end * 1000)).put("item_id", item));
            }
            send(new JsonObject().put("type", "input_audio_buffer.committed").put("item_id", item));
            send(new JsonObject().put("type", "conversation.item.added").put("item", new JsonObject()
                    .put("id", item).put("type", "message").put("role", "user")));
            callerText = transcript;
            send(new JsonObject().put("type", "conversation.item.input_audio_transcription.completed")
                    .put("item_id", item).put("content_index", 0).put("transcript", transcript));
            if (createResponse) {
                if (responding != null) {
                    cancelled();
                }
                respond(new JsonObject());
            }
        }

        private void create(JsonObject response) {
            if (responding != null) {
                invalid("conversation_already_has_active_response",
                        "Conversation already has an active response in progress.");
                return;
            }
            respond(response);
        }

        private void respond(JsonObject response) {
            String responseId = "resp_" + id();
            responding = responseId;
            if (delayMillis > 0) {
                vertx.setTimer(delayMillis, t -> {
                    if (responseId.equals(responding)) {
                        reply(responseId, response);
                    }
                });
            } else {
                reply(responseId, response);
            }
        }

        private void reply(String responseId, JsonObject response) {
            if (mode == Failure.SERVER_ERROR_ON_RESPONSE && !failedOnce) {
                failedOnce = true;
                send(new JsonObject().put("type", "error").put("error",
                        error("server_error", null, "The server had an error while processing your request.")));
                ws.close((short) 1011, "server_error");
                return;
            }
            JsonObject metadata = response.getJsonObject("metadata");
            send(new JsonObject().put("type", "response.created").put("response", new JsonObject()
                    .put("id", responseId).put("object", "realtime.response").put("status", "in_progress")
                    .put("metadata", metadata).put("output", new JsonArray())));
            String instructions = response.getString("instructions");
            Reply reply;
            if (instructions != null && instructions.contains(SAY)) {
                reply = new Say(instructions.substring(instructions.indexOf(SAY) + SAY.length()));
            } else {
                reply = script.apply(new Context(instructions, callerText, toolOutput));
                toolOutput = null;
            }
            String itemId = "item_" + id();
            JsonObject item;
            if (reply instanceof Call call) {
                String callId = "call_" + id();
                item = new JsonObject().put("id", itemId).put("type", "function_call").put("status", "completed")
                        .put("name", call.name()).put("call_id", callId).put("arguments", call.arguments());
                send(new JsonObject().put("type", "response.output_item.added").put("response_id", responseId)
                        .put("output_index", 0).put("item", item.copy().put("status", "in_progress")
                                .put("arguments", "")));
                send(new JsonObject().put("type", "response.function_call_arguments.delta")
                        .put("response_id", responseId).put("item_id", itemId).put("output_index", 0)
                        .put("call_id", callId).put("delta", call.arguments()));
                send(new JsonObject().put("type", "response.function_call_arguments.done")
                        .put("response_id", responseId).put("item_id", itemId).put("output_index", 0)
                        .put("call_id", callId).put("name", call.name()).put("arguments", call.arguments()));
            } else {
                String text = ((Say) reply).text();
                byte[] audio = pcmu ? SpeechFixtures.mulaw8k(text) : SpeechFixtures.pcm24k(text);
                audioMillis.put(itemId, pcmu ? audio.length / 8L : audio.length / 48L);
                item = new JsonObject().put("id", itemId).put("type", "message").put("role", "assistant")
                        .put("status", "completed").put("content", new JsonArray().add(new JsonObject()
                                .put("type", "output_audio").put("transcript", text)));
                send(new JsonObject().put("type", "response.output_item.added").put("response_id", responseId)
                        .put("output_index", 0).put("item", new JsonObject().put("id", itemId)
                                .put("type", "message").put("role", "assistant").put("status", "in_progress")
                                .put("content", new JsonArray())));
                send(new JsonObject().put("type", "response.content_part.added").put("response_id", responseId)
                        .put("item_id", itemId).put("output_index", 0).put("content_index", 0)
                        .put("part", new JsonObject().put("type", "output_audio").put("transcript", "")));
                String[] words = text.trim().split("\\s+");
                int chunk = pcmu ? 800 : 4800; // 100 ms
                int chunks = Math.max(1, (audio.length + chunk - 1) / chunk);
                for (int i = 0; i < chunks && !closed && responseId.equals(responding); i++) {
                    // The words run ahead of the audio, as OpenAI's do.
                    int wordsBy = Math.min(words.length, (int) Math.ceil((double) (i + 1) * words.length / chunks));
                    for (int w = (int) Math.ceil((double) i * words.length / chunks); w < wordsBy; w++) {
                        send(new JsonObject().put("type", "response.output_audio_transcript.delta")
                                .put("response_id", responseId).put("item_id", itemId).put("output_index", 0)
                                .put("content_index", 0).put("delta", (w == 0 ? "" : " ") + words[w]));
                    }
                    byte[] part = java.util.Arrays.copyOfRange(audio, i * chunk, Math.min(audio.length,
                            (i + 1) * chunk));
                    send(new JsonObject().put("type", "response.output_audio.delta").put("response_id", responseId)
                            .put("item_id", itemId).put("output_index", 0).put("content_index", 0)
                            .put("delta", Base64.getEncoder().encodeToString(part)));
                }
                send(new JsonObject().put("type", "response.output_audio.done").put("response_id", responseId)
                        .put("item_id", itemId).put("output_index", 0).put("content_index", 0));
                send(new JsonObject().put("type", "response.output_audio_transcript.done")
                        .put("response_id", responseId).put("item_id", itemId).put("output_index", 0)
                        .put("content_index", 0).put("transcript", text));
                send(new JsonObject().put("type", "response.content_part.done").put("response_id", responseId)
                        .put("item_id", itemId).put("output_index", 0).put("content_index", 0));
            }
            if (!responseId.equals(responding)) {
                return;
            }
            send(new JsonObject().put("type", "response.output_item.done").put("response_id", responseId)
                    .put("output_index", 0).put("item", item));
            responding = null;
            send(new JsonObject().put("type", "response.done").put("response", new JsonObject()
                    .put("id", responseId).put("object", "realtime.response").put("status", "completed")
                    .put("metadata", metadata).put("output", new JsonArray().add(item))
                    .put("usage", usage(100, 20, 80, 16, 48, 50, 10, 40))));
        }

        /** The reply under way stops: {@code response.done} with status {@code cancelled}. */
        private void cancelled() {
            String responseId = responding;
            responding = null;
            send(new JsonObject().put("type", "response.done").put("response", new JsonObject()
                    .put("id", responseId).put("object", "realtime.response").put("status", "cancelled")
                    .put("status_details", new JsonObject().put("type", "cancelled").put("reason", "turn_detected"))
                    .put("output", new JsonArray()).put("usage", usage(10, 2, 8, 0, 0, 0, 0, 0))));
        }

        /** A reply's usage as OpenAI details it; the cached input tokens are part of the text and audio ones. */
        private static JsonObject usage(int input, int text, int audio, int cachedText, int cachedAudio, int output,
                int textOut, int audioOut) {
            return new JsonObject().put("total_tokens", input + output).put("input_tokens", input)
                    .put("output_tokens", output)
                    .put("input_token_details", new JsonObject().put("text_tokens", text).put("audio_tokens", audio)
                            .put("image_tokens", 0).put("cached_tokens", cachedText + cachedAudio)
                            .put("cached_tokens_details", new JsonObject().put("text_tokens", cachedText)
                                    .put("audio_tokens", cachedAudio).put("image_tokens", 0)))
                    .put("output_token_details", new JsonObject().put("text_tokens", textOut)
                            .put("audio_tokens", audioOut));
        }

        private void invalid(String code, String message) {
            send(new JsonObject().put("type", "error").put("error", error("invalid_request_error", code, message)));
        }

        private void send(JsonObject event) {
            if (closed) {
                return;
            }
            event.put("event_id", eventId());
            if ("response.done".equals(event.getString("type"))) {
                usages.add(event.getJsonObject("response").getJsonObject("usage", new JsonObject()));
            }
            String text = mode == Failure.GARBAGE ? "<html>" + event.getString("type") + "</html>" : event.encode();
            ws.writeTextMessage(text);
        }
    }

    /** The words of the items the runtime created (messages' texts), for a hand-off's conversation so far. */
    public List<String> itemTexts() {
        List<String> texts = new ArrayList<>();
        for (JsonObject item : items) {
            JsonArray content = item.getJsonArray("content");
            if (content != null && !content.isEmpty()) {
                texts.add(item.getString("role") + ": " + content.getJsonObject(0).getString("text"));
            }
        }
        return texts;
    }
}
