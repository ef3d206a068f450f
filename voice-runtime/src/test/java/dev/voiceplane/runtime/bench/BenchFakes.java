package dev.voiceplane.runtime.bench;

import dev.voiceplane.runtime.fake.FakeAnthropic;
import dev.voiceplane.runtime.fake.FakeAssemblyAi;
import dev.voiceplane.runtime.fake.FakeAzureSpeech;
import dev.voiceplane.runtime.fake.FakeCartesia;
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeElevenLabs;
import dev.voiceplane.runtime.fake.FakeGemini;
import dev.voiceplane.runtime.fake.FakeLmnt;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeOpenAiRealtime;
import dev.voiceplane.runtime.fake.FakeRime;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The runtime's surroundings for {@code deploy/bench/runtime}, in a process of their own (so that their CPU is
 * measured apart from the runtime's and the callers'): the provider fakes (Deepgram live, OpenAI streaming chat,
 * ElevenLabs streaming speech) and a stand-in for call-service and credential-service that lets every call attach
 * with one fixed assistant and hands out the fakes' keys.
 *
 * <p>The bench drives it over loopback HTTP: {@code POST /bench/config?sttMs=&llmMs=&ttsMs=&responseDelay=
 * &llmRequestDelay=} sets the fakes' delays and the assistant's own delays for the calls that attach next;
 * {@code GET /bench/stats} answers the runtime's reports so far (events received, ended calls by reason, tool calls).
 * The assistant has one function tool, {@link #TOOL}: the fifth question makes the model call it, the stand-in
 * answers the runtime's {@code tool-calls} request at once, and the model then answers with its result.
 *
 * <p>Per provider ({@code BENCH_PROVIDERS} of {@code deploy/bench/runtime}): {@code POST /bench/providers?transcriber=
 * &model=&voice=} makes the calls that attach next use those providers (one stage changed from Deepgram, OpenAI and
 * ElevenLabs at a time); every provider's fake speaks its real protocol, recognises the questions, answers them and
 * speaks the answers, with no delay of its own. {@link #PROVIDERS} lists the ones the bench can run.
 *
 * <p>The realtime engine ({@code BENCH_ENGINES} of {@code deploy/bench/runtime}): {@code POST /bench/providers?
 * engine=realtime} makes the calls that attach next run on {@link #REALTIME_MODEL}, a speech-to-speech model, on
 * OpenAI Realtime's fake ({@link FakeOpenAiRealtime}) with no delay of its own: its server VAD hears the caller's
 * k-th utterance as the k-th question, ends the turn {@code silence_duration_ms} (the runtime asks for 500 ms) after
 * the last voiced 20 ms window and replies at once with the same answers, the tool question with a call of
 * {@link #TOOL}. {@code engine=cascade} (the default) goes back to the transcriber, model and voice.
 *
 * <p>Usage: {@code BenchFakes <ports file>}: writes {@code deepgram=, openai=, elevenlabs=, control=} ports and the
 * other providers' base URLs ({@code url.<VARIABLE>=}) there once listening, and runs until the process is stopped.
 */
public final class BenchFakes {

    /** Each stage's providers the bench can run, with the model or voice id its assistant names. */
    static final Map<String, Map<String, String>> PROVIDERS = Map.of(
            "transcriber", Map.of("deepgram", "nova-2", "assembly-ai", "universal-streaming-english"),
            "model", Map.of("openai", "gpt-4o-mini", "anthropic", "claude-haiku-4-5", "google", "gemini-2.5-flash",
                    "groq", "llama-3.3-70b-versatile"),
            "voice", Map.of("11labs", "rachel", "cartesia", "a0e99841-438c-4a64-b679-ae501e7d6091",
                    "deepgram", "aura-2-thalia-en", "azure", "en-US-JennyNeural", "rime-ai", "cove", "lmnt", "leah"));

    static final String DEEPGRAM_KEY = "dg-bench-key";
    static final String OPENAI_KEY = "sk-bench-key";
    static final String ELEVENLABS_KEY = "el-bench-key";
    /** The assistant's model on the realtime engine. */
    static final String REALTIME_MODEL = "gpt-realtime";
    /** The key of every other provider's fake. */
    static final String OTHER_KEY = "other-bench-key";

    static final String GREETING = "Hello, how can I help you?";
    /** What the callers say, in order; the fake transcriber "recognises" the k-th speech segment as the k-th line. */
    static final String[] QUESTIONS = {"What time do you open tomorrow?", "Do you have parking?",
            "Tell me about the menu.", "Just the prices please.", "Are you open on Sunday?"};
    /** The fifth question is answered after one tool call ({@link #TOOL}), which the stand-in answers at once. */
    static final String TOOL = "check_hours";
    static final String TOOL_RESULT = "Sunday: open from ten to four.";
    static final String TOOL_ANSWER = "Yes we open at ten on Sunday.";
    /** The long reply, interrupted by the fourth question. */
    static final String MENU = "Our menu has many dishes. There are soups and salads. There are sandwiches and wraps."
            + " There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
    static final Map<String, String> ANSWERS = Map.of(QUESTIONS[0], "We open at nine tomorrow.",
            QUESTIONS[1], "Yes there is parking behind us.", QUESTIONS[2], MENU,
            QUESTIONS[3], "Everything is under ten pounds.");

    private final FakeDeepgram deepgram = new FakeDeepgram(DEEPGRAM_KEY);
    private final FakeOpenAi openai = new FakeOpenAi(OPENAI_KEY);
    private final FakeOpenAiRealtime realtime = new FakeOpenAiRealtime(OPENAI_KEY);
    private final FakeElevenLabs elevenlabs = new FakeElevenLabs(ELEVENLABS_KEY);
    private final FakeAssemblyAi assemblyAi = new FakeAssemblyAi(OTHER_KEY);
    private final FakeAnthropic anthropic = new FakeAnthropic(OTHER_KEY);
    private final FakeGemini gemini = new FakeGemini(OTHER_KEY);
    private final FakeCartesia cartesia = new FakeCartesia(OTHER_KEY);
    private final FakeAzureSpeech azure = new FakeAzureSpeech(OTHER_KEY);
    private final FakeRime rime = new FakeRime(OTHER_KEY);
    private final FakeLmnt lmnt = new FakeLmnt(OTHER_KEY);
    private volatile String transcriber = "deepgram";
    private volatile String model = "openai";
    private volatile String voice = "11labs";
    private volatile boolean realtimeEngine;
    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    private volatile double responseDelaySeconds;
    private volatile double llmRequestDelaySeconds;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong attaches = new AtomicLong();
    private final AtomicLong toolCalls = new AtomicLong();
    private final Map<String, AtomicLong> ended = new ConcurrentHashMap<>();

    private BenchFakes() {
        deepgram.script(QUESTIONS);
        realtime.transcripts(QUESTIONS).script(BenchFakes::speak);
        assemblyAi.script(QUESTIONS);
        openai.script(BenchFakes::answer);
        anthropic.script(request -> new FakeAnthropic.Text(ANSWERS.getOrDefault(FakeAnthropic.lastUserText(request),
                "Sorry, could you say that again?")));
        gemini.script(request -> FakeGemini.Reply.text(ANSWERS.getOrDefault(FakeGemini.lastUserText(request),
                "Sorry, could you say that again?")));
        configure(0, 0, 0, 0, 0);
    }

    /** The model: a tool call for the tool question, the answer once the tool's result is in, else the answers. */
    private static FakeOpenAi.Reply answer(JsonObject request) {
        JsonArray messages = request.getJsonArray("messages");
        if ("tool".equals(messages.getJsonObject(messages.size() - 1).getString("role"))) {
            return new FakeOpenAi.Text(TOOL_ANSWER);
        }
        String question = FakeOpenAi.lastUserMessage(request);
        if (QUESTIONS[4].equals(question)) {
            return FakeOpenAi.Reply.toolCall(TOOL, "{\"day\":\"sunday\"}");
        }
        return new FakeOpenAi.Text(ANSWERS.getOrDefault(question, "Sorry, could you say that again?"));
    }

    /** The realtime model: the answer once the tool's result is in, a tool call for the tool question, else the answers. */
    private static FakeOpenAiRealtime.Reply speak(FakeOpenAiRealtime.Context context) {
        if (context.toolOutput() != null) {
            return new FakeOpenAiRealtime.Say(TOOL_ANSWER);
        }
        if (QUESTIONS[4].equals(context.callerText())) {
            return new FakeOpenAiRealtime.Call(TOOL, "{\"day\":\"sunday\"}");
        }
        return new FakeOpenAiRealtime.Say(ANSWERS.getOrDefault(context.callerText(), "Sorry, could you say that again?"));
    }

    private void configure(long sttMs, long llmMs, long ttsMs, double responseDelay, double llmRequestDelay) {
        // The transcriber's final comes sttMs after the runtime's Finalize (or after its own endpointing).
        deepgram.finalizeDelayMs(sttMs).finalDelayMs(sttMs);
        openai.ttftMs(llmMs);
        elevenlabs.ttfbMs(ttsMs);
        responseDelaySeconds = responseDelay;
        llmRequestDelaySeconds = llmRequestDelay;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: BenchFakes <ports file>");
        }
        // Every line the fakes will speak, made once now (espeak-ng) so that no request waits for it.
        SpeechFixtures.mulaw8k(GREETING);
        ANSWERS.values().forEach(SpeechFixtures::mulaw8k);
        SpeechFixtures.mulaw8k(TOOL_ANSWER);
        SpeechFixtures.mulaw8k("Sorry, could you say that again?");
        BenchFakes fakes = new BenchFakes();
        HttpServer control = fakes.vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(fakes::handle).listen().toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        Path file = Path.of(args[0]);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, "deepgram=" + fakes.deepgram.port() + "\nopenai=" + fakes.openai.port()
                + "\nelevenlabs=" + fakes.elevenlabs.port() + "\ncontrol=" + control.actualPort()
                + "\nurl.VOICE_ASSEMBLYAI_URL=" + fakes.assemblyAi.baseUrl()
                + "\nurl.VOICE_ANTHROPIC_API_URL=" + fakes.anthropic.baseUrl()
                + "\nurl.VOICE_GOOGLE_API_URL=" + fakes.gemini.baseUrl()
                + "\nurl.VOICE_GROQ_API_URL=http://127.0.0.1:" + fakes.openai.port() + "/v1"
                + "\nurl.VOICE_CARTESIA_URL=" + fakes.cartesia.baseUrl()
                + "\nurl.VOICE_AZURE_SPEECH_URL=" + fakes.azure.baseUrl()
                + "\nurl.VOICE_RIME_URL=" + fakes.rime.baseUrl()
                + "\nurl.VOICE_LMNT_URL=" + fakes.lmnt.baseUrl()
                // voice.runtime.url.openai-realtime: the Realtime sessions go to their own fake, the chat to OpenAI's.
                + "\nurl.VOICE_RUNTIME_URL_OPENAI_REALTIME=" + fakes.realtime.baseUrl() + "\n");
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        Thread.currentThread().join();
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            String path = request.path();
            var response = request.response().putHeader("content-type", "application/json");
            if (path.startsWith("/internal/call/") && path.endsWith("/runtime/attach")) {
                attaches.incrementAndGet();
                String callId = path.substring("/internal/call/".length(), path.length() - "/runtime/attach".length());
                response.end(new JsonObject()
                        .put("call", new JsonObject().put("id", callId).put("type", "inboundPhoneCall"))
                        .put("assistant", assistant()).put("variableValues", new JsonObject()
                                .put("business", "the Harbour Cafe")).encode());
            } else if (path.startsWith("/internal/call/") && path.endsWith("/runtime/events")) {
                events.incrementAndGet();
                JsonObject event = body.toJsonObject();
                if ("ended".equals(event.getString("type"))) {
                    ended.computeIfAbsent(event.getString("endedReason", "?"), k -> new AtomicLong()).incrementAndGet();
                }
                response.end("{\"recorded\":true,\"applied\":true,\"status\":\"in-progress\"}");
            } else if (path.startsWith("/internal/call/") && path.endsWith("/runtime/tool-calls")) {
                // call-service with a tool server answering at once: the round trip's cost is the runtime's and the
                // model's second request, not a server's.
                toolCalls.incrementAndGet();
                JsonArray results = new JsonArray();
                for (Object call : body.toJsonObject().getJsonArray("toolCallList", new JsonArray())) {
                    JsonObject toolCall = (JsonObject) call;
                    results.add(new JsonObject().put("toolCallId", toolCall.getString("id"))
                            .put("name", toolCall.getJsonObject("function", new JsonObject()).getString("name"))
                            .put("result", TOOL_RESULT));
                }
                response.end(new JsonObject().put("results", results).encode());
            } else if (path.equals("/internal/credential")) {
                String provider = request.getParam("provider", "");
                response.end(new JsonArray().add(new JsonObject().put("id", provider + "-bench")
                        .put("provider", provider)).encode());
            } else if (path.startsWith("/internal/credential/") && path.endsWith("/secret")) {
                String id = path.substring("/internal/credential/".length(), path.length() - "/secret".length());
                String provider = id.endsWith("-bench") ? id.substring(0, id.length() - "-bench".length()) : "";
                String key = switch (provider) {
                    case "deepgram" -> DEEPGRAM_KEY;
                    case "openai", "groq" -> OPENAI_KEY;
                    case "11labs", "elevenlabs" -> ELEVENLABS_KEY;
                    case "assembly-ai", "anthropic", "google", "cartesia", "azure", "rime-ai", "lmnt" -> OTHER_KEY;
                    default -> null;
                };
                if (key == null) {
                    response.setStatusCode(404).end("{\"message\":\"no such credential\",\"error\":\"Not Found\","
                            + "\"statusCode\":404}");
                } else {
                    response.end(new JsonObject().put("id", id).put("provider", provider).put("apiKey", key).encode());
                }
            } else if (path.equals("/bench/config")) {
                configure(Long.parseLong(request.getParam("sttMs", "0")), Long.parseLong(request.getParam("llmMs", "0")),
                        Long.parseLong(request.getParam("ttsMs", "0")),
                        Double.parseDouble(request.getParam("responseDelay", "0")),
                        Double.parseDouble(request.getParam("llmRequestDelay", "0")));
                response.end("{}");
            } else if (path.equals("/bench/providers")) {
                String t = request.getParam("transcriber", "deepgram");
                String m = request.getParam("model", "openai");
                String v = request.getParam("voice", "11labs");
                String engine = request.getParam("engine", "cascade");
                if (!PROVIDERS.get("transcriber").containsKey(t) || !PROVIDERS.get("model").containsKey(m)
                        || !PROVIDERS.get("voice").containsKey(v) || !List.of("cascade", "realtime").contains(engine)) {
                    response.setStatusCode(400).end(new JsonObject().put("message", "the bench runs " + PROVIDERS
                            + " on the engine cascade or realtime").put("error", "Bad Request").put("statusCode", 400)
                            .encode());
                    return;
                }
                transcriber = t;
                model = m;
                voice = v;
                realtimeEngine = engine.equals("realtime");
                response.end("{}");
            } else if (path.equals("/bench/stats")) {
                JsonObject reasons = new JsonObject();
                ended.forEach((reason, count) -> reasons.put(reason, count.get()));
                response.end(new JsonObject().put("attaches", attaches.get()).put("events", events.get())
                        .put("toolCalls", toolCalls.get())
                        .put("ended", reasons).put("deepgramOpen", deepgram.openConnections())
                        .put("openaiDisconnects", openai.disconnects())
                        .put("realtimeSessions", realtime.connections())
                        .put("elevenlabsDisconnects", elevenlabs.disconnects()).encode());
            } else {
                response.setStatusCode(404).end("{\"message\":\"not found\",\"error\":\"Not Found\",\"statusCode\":404}");
            }
        });
    }

    private JsonObject assistant() {
        JsonObject tools = new JsonObject().put("tools", new JsonArray().add(new JsonObject().put("type", "function")
                .put("function", new JsonObject().put("name", TOOL)
                        .put("description", "The opening hours of a day.")
                        .put("parameters", new JsonObject().put("type", "object").put("properties",
                                new JsonObject().put("day", new JsonObject().put("type", "string")))))
                .put("server", new JsonObject().put("url", "https://tools.bench.invalid/hours"))));
        JsonObject system = new JsonObject().put("messages", new JsonArray().add(new JsonObject()
                .put("role", "system").put("content", "You answer for {{business}}.")));
        if (realtimeEngine) {
            // A speech-to-speech model: no transcriber and no voice (docs/voice-runtime.md, "Realtime models").
            return new JsonObject()
                    .put("model", new JsonObject().put("provider", "openai").put("model", REALTIME_MODEL)
                            .mergeIn(system).mergeIn(tools))
                    .put("firstMessage", GREETING)
                    .put("responseDelaySeconds", responseDelaySeconds)
                    .put("llmRequestDelaySeconds", llmRequestDelaySeconds);
        }
        return new JsonObject()
                .put("transcriber", new JsonObject().put("provider", transcriber).put("language", "en")
                        .put("model", PROVIDERS.get("transcriber").get(transcriber)))
                .put("model", new JsonObject().put("provider", model).put("model", PROVIDERS.get("model").get(model))
                        .put("temperature", 0.3).put("messages", new JsonArray().add(new JsonObject()
                                .put("role", "system").put("content", "You answer for {{business}}.")))
                        .put("tools", new JsonArray().add(new JsonObject().put("type", "function")
                                .put("function", new JsonObject().put("name", TOOL)
                                        .put("description", "The opening hours of a day.")
                                        .put("parameters", new JsonObject().put("type", "object").put("properties",
                                                new JsonObject().put("day", new JsonObject().put("type", "string")))))
                                .put("server", new JsonObject().put("url", "https://tools.bench.invalid/hours")))))
                .put("voice", new JsonObject().put("provider", voice).put("voiceId", PROVIDERS.get("voice").get(voice))
                        .put("inputMinCharacters", 10))
                .put("firstMessage", GREETING)
                .put("responseDelaySeconds", responseDelaySeconds)
                .put("llmRequestDelaySeconds", llmRequestDelaySeconds);
    }
}
