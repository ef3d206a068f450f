package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeGeminiLive;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code model: {provider: google, model: <a Gemini Live model>}} through the Gemini Live fake (on the Gemini fake's
 * server, as {@code VOICE_GOOGLE_API_URL} names it) and the runtime's real media sockets, with no transcriber and no
 * voice: the setup the model is given, a phone call (μ-law 8 kHz to and from Gemini's 16 kHz in, 24 kHz out) and a web
 * call (16 kHz as it is) from the greeting to an end-call phrase, Gemini's {@code interrupted} as the caller's
 * barge-in, a tool call answered through call-service, squad hand-offs to and from a cascaded member, and each way the
 * model fails.
 */
@QuarkusTest
class GeminiLiveTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String GREETING = "Harbour Cafe, hello.";
    private static final String QUESTION = "What time do you open tomorrow?";
    private static final String ANSWER = "We open at nine. Goodbye now.";
    private static final Map<String, String> KEYS = Map.of("google", FakeProviders.GOOGLE_KEY);

    @InjectWireMock
    WireMockServer wireMock;

    private final ObjectMapper json = new ObjectMapper();
    private StubbedCalls calls;

    @BeforeEach
    void setUp() throws Exception {
        calls = new StubbedCalls(wireMock);
        TranscriberScenarios.warmUp(wireMock, calls);
        FakeProviders.geminiLive().failure(FakeGeminiLive.Failure.NONE).delayMillis(0).paceMillis(0)
                .transcripts(QUESTION).script(context -> new FakeGeminiLive.Say(ANSWER));
    }

    @AfterEach
    void tearDown() {
        FakeProviders.geminiLive().failure(FakeGeminiLive.Failure.NONE).delayMillis(0).paceMillis(0);
    }

    /** A Gemini Live assistant: no transcriber, no voice unless {@code extra} gives one. */
    private static String assistant(String model, String extra) {
        return "{\"model\":{\"provider\":\"google\",\"model\":\"" + model + "\",\"maxTokens\":300,"
                + "\"temperature\":0.4,\"messages\":[{\"role\":\"system\",\"content\":\"You answer for {{business}}.\"}]"
                + "},\"responseDelaySeconds\":0" + extra + "}";
    }

    private static void greeted(FakeCaller caller) {
        Eventually.until("the greeting to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                && !caller.playing() && !caller.receivedMarks().isEmpty()
                && caller.echoedMarks().size() == caller.receivedMarks().size());
    }

    private static List<JsonObject> clientContents(FakeGeminiLive live, int from) {
        return live.received().subList(from, live.received().size()).stream()
                .filter(message -> message.containsKey("clientContent"))
                .map(message -> message.getJsonObject("clientContent")).toList();
    }

    @Test
    void aPhoneCallIsHeldFromTheGreetingToAnEndCallPhrase() throws Exception {
        FakeGeminiLive live = FakeProviders.geminiLive();
        int receivedBefore = live.received().size();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("gemini-live-2.5-flash-preview", ",\"firstMessage\":\"" + GREETING
                + "\",\"endCallPhrases\":[\"goodbye now\"],\"voice\":{\"provider\":\"vapi\",\"voiceId\":\"Kore\"}"),
                KEYS, "{\"business\":\"Harbour Cafe\"}");
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            greeted(caller);
            int greetingBytes = caller.playedAudio().length;
            assertTrue(greetingBytes >= SpeechFixtures.mulaw8k(GREETING).length - 160,
                    "the whole greeting was played, from 24 kHz to μ-law: " + greetingBytes);
            FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k(QUESTION));
            assertTrue(question.voiceToVoiceMs(BOUND) > 0, "the reply was heard after the question");
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
        }
        JsonNode ended = calls.ended(callId);
        assertEquals("assistant-said-end-call-phrase", ended.path("endedReason").asText(), ended.toString());
        assertEquals(List.of("bot: " + GREETING, "user: " + QUESTION, "bot: " + ANSWER), calls.transcript(callId));

        assertEquals(FakeProviders.GOOGLE_KEY, live.lastApiKey());
        assertFalse(live.keyInQuery(), "the key goes as x-goog-api-key");
        JsonObject setup = live.lastSetup();
        assertEquals("models/gemini-live-2.5-flash-preview", setup.getString("model"));
        JsonObject generation = setup.getJsonObject("generationConfig");
        assertEquals(new JsonArray().add("AUDIO"), generation.getJsonArray("responseModalities"));
        assertEquals("Kore", generation.getJsonObject("speechConfig").getJsonObject("voiceConfig")
                .getJsonObject("prebuiltVoiceConfig").getString("voiceName"), "voice.voiceId is the voice");
        assertEquals(300, generation.getInteger("maxOutputTokens"));
        assertEquals(0.4, generation.getDouble("temperature"), 1e-9);
        assertEquals("You answer for Harbour Cafe.", setup.getJsonObject("systemInstruction").getJsonArray("parts")
                .getJsonObject(0).getString("text"), "variables filled in");
        assertEquals(new JsonObject(), setup.getJsonObject("inputAudioTranscription"));
        assertEquals(new JsonObject(), setup.getJsonObject("outputAudioTranscription"));
        JsonObject activity = setup.getJsonObject("realtimeInputConfig");
        assertFalse(activity.getJsonObject("automaticActivityDetection").getBoolean("disabled"), activity.encode());
        assertEquals("START_OF_ACTIVITY_INTERRUPTS", activity.getString("activityHandling"));
        assertTrue(live.audioMimeTypes().contains("audio/pcm;rate=16000"), "the caller's μ-law goes as 16 kHz PCM");
        assertTrue(live.audioMimeTypes().stream().allMatch("audio/pcm;rate=16000"::equals));
        List<JsonObject> asked = clientContents(live, receivedBefore);
        assertTrue(asked.stream().anyMatch(content -> content.getBoolean("turnComplete", false)
                && content.getJsonArray("turns").getJsonObject(0).getJsonArray("parts").getJsonObject(0)
                        .getString("text").endsWith("nothing else: " + GREETING)),
                "the first message is asked for as written: " + asked);

        JsonNode usage = ended.path("usage");
        assertEquals(200, usage.path("llmPromptTokens").asLong(), "two turns' promptTokenCount: " + usage);
        assertEquals(100, usage.path("llmCompletionTokens").asLong(), "two turns' responseTokenCount: " + usage);
        assertEquals(0, usage.path("ttsCharacters").asLong(), "no voice of its own: " + usage);
    }

    @Test
    void aWebCallSpeaksSixteenKilohertzPcmAsItIs() throws Exception {
        FakeGeminiLive live = FakeProviders.geminiLive();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("gemini-2.0-flash-live-001", ",\"firstMessage\":\"Hi, web caller.\","
                + "\"endCallPhrases\":[\"goodbye now\"]"), KEYS, "{\"business\":\"Harbour Cafe\"}");
        String url = "ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token=" + calls.token(callId, org);
        try (FakeWebCaller caller = FakeWebCaller.connect(url)) {
            greeted(caller);
            assertTrue(caller.playedAudio().length >= SpeechFixtures.pcm16k("Hi, web caller.").length - 640,
                    "the greeting resampled from 24 kHz to 16 kHz: " + caller.playedAudio().length);
            assertTrue(caller.say(SpeechFixtures.pcm16k(QUESTION)).voiceToVoiceMs(BOUND) > 0);
            Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        }
        assertEquals("assistant-said-end-call-phrase", calls.ended(callId).path("endedReason").asText());
        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER),
                calls.transcript(callId));
        JsonObject setup = live.lastSetup();
        assertEquals("models/gemini-2.0-flash-live-001", setup.getString("model"));
        assertNull(setup.getJsonObject("generationConfig").getJsonObject("speechConfig"),
                "the model's own voice when none is named");
        assertTrue(live.audioMimeTypes().contains("audio/pcm;rate=16000"));
    }

    @Test
    void geminisInterruptionClearsTheFarEndAndTheTranscriptKeepsWhatWasHeard() throws Exception {
        String menu = "Our menu has many dishes. There are soups and salads. There are sandwiches and wraps."
                + " There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
        // The reply is made at the pace it plays, so that Gemini is still making it when the caller speaks.
        FakeGeminiLive live = FakeProviders.geminiLive().paceMillis(100).transcripts("Tell me about the menu.",
                "Just the prices please.").script(context -> new FakeGeminiLive.Say(
                        context.callerText().startsWith("Tell") ? menu : "Everything is under ten pounds."));
        int interruptionsBefore = live.interruptions();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("gemini-2.5-flash-native-audio-preview-09-2025",
                ",\"firstMessageMode\":\"assistant-waits-for-user\""), KEYS, "{\"business\":\"Harbour Cafe\"}");
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k("Tell me about the menu.")).voiceToVoiceMs(BOUND);
            Eventually.until("a second of the reply to play", BOUND, () -> caller.playedAudio().length > 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k("Just the prices please."));
            assertTrue(interruption.bargeInMs(BOUND) > 0, "the runtime cleared the caller's audio");
            interruption.voiceToVoiceMs(BOUND);
            Eventually.until("the answer to the interruption", BOUND, () -> calls.transcript(callId).size() == 4);
        }
        assertTrue(live.interruptions() > interruptionsBefore, "Gemini interrupted its reply");
        List<String> transcript = calls.transcript(callId);
        assertEquals("user: Tell me about the menu.", transcript.get(0), transcript.toString());
        assertTrue(transcript.get(1).startsWith("bot: Our menu"), transcript.toString());
        assertTrue(transcript.get(1).length() < "bot: ".length() + menu.length(),
                "the interrupted reply keeps what was played: " + transcript.get(1));
        assertEquals("user: Just the prices please.", transcript.get(2), transcript.toString());
        assertEquals("bot: Everything is under ten pounds.", transcript.get(3));
    }

    @Test
    void aToolCallIsAnsweredThroughCallServiceAndItsResultGoesBackToTheModel() throws Exception {
        String question = "Where is my order forty two?";
        FakeGeminiLive live = FakeProviders.geminiLive().transcripts(question).script(context ->
                context.toolOutput() != null ? new FakeGeminiLive.Say("It ships tomorrow.")
                        : new FakeGeminiLive.Call("lookup_order", "{\"order\":42}"));
        int receivedBefore = live.received().size();
        UUID callId = UUID.randomUUID();
        String tools = "[{\"type\":\"function\",\"function\":{\"name\":\"lookup_order\",\"description\":\"Finds an"
                + " order.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"number\"}},"
                + "\"required\":[\"order\"],\"additionalProperties\":false}},"
                + "\"server\":{\"url\":\"https://tools.example.com/orders\"},"
                + "\"messages\":[{\"type\":\"request-start\",\"content\":\"Let me look that up.\"}]}]";
        String org = calls.call(callId, "{\"model\":{\"provider\":\"google\",\"model\":\"gemini-live-2.5-flash\","
                + "\"tools\":" + tools + "},\"responseDelaySeconds\":0,"
                + "\"firstMessageMode\":\"assistant-waits-for-user\"}", KEYS);
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/tool-calls"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody(
                        "{\"results\":[{\"toolCallId\":\"any\",\"name\":\"lookup_order\","
                                + "\"result\":\"Order 42 ships tomorrow.\"}]}")));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question));
            Eventually.until("the answer with the tool's result", BOUND, () -> calls.transcript(callId).size() == 2);
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        assertEquals(List.of("user: " + question, "bot: Let me look that up. It ships tomorrow."),
                calls.transcript(callId), "the request-start message, then the model's answer with the result");
        JsonObject declaration = live.lastSetup().getJsonArray("tools").getJsonObject(0)
                .getJsonArray("functionDeclarations").getJsonObject(0);
        assertEquals("lookup_order", declaration.getString("name"), declaration.encode());
        assertEquals("number", declaration.getJsonObject("parameters").getJsonObject("properties")
                .getJsonObject("order").getString("type"));
        assertFalse(declaration.getJsonObject("parameters").containsKey("additionalProperties"),
                "parameters in Gemini's schema");
        JsonNode asked = json.readTree(wireMock.findAll(postRequestedFor(
                urlEqualTo("/internal/call/" + callId + "/runtime/tool-calls"))).get(0).getBodyAsString());
        JsonNode call = asked.path("toolCallList").path(0);
        assertEquals("lookup_order", call.path("function").path("name").asText());
        List<JsonObject> responses = live.received().subList(receivedBefore, live.received().size()).stream()
                .filter(message -> message.containsKey("toolResponse")).toList();
        assertEquals(1, responses.size(), live.received().toString());
        JsonObject response = responses.get(0).getJsonObject("toolResponse").getJsonArray("functionResponses")
                .getJsonObject(0);
        assertEquals(call.path("id").asText(), response.getString("id"), "Gemini's own call id");
        assertTrue(response.getString("id").startsWith("function-call-"), response.encode());
        assertEquals("lookup_order", response.getString("name"));
        assertEquals("Order 42 ships tomorrow.", response.getJsonObject("response").getString("result"));
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
    }

    // ---- squads ------------------------------------------------------------------------------------------------

    private static final String CASCADED_FRONT_DESK = "{\"name\":\"Front desk\",\"transcriber\":{\"provider\":"
            + "\"deepgram\",\"language\":\"en\"},\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\","
            + "\"messages\":[{\"role\":\"system\",\"content\":\"You are the front desk of {{business}}.\"}]},"
            + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\",\"inputMinCharacters\":10},"
            + "\"firstMessage\":\"Front desk, how can I help?\",\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0}";
    private static final String LIVE_FRONT_DESK = "{\"name\":\"Front desk\",\"model\":{\"provider\":\"google\","
            + "\"model\":\"gemini-live-2.5-flash-preview\",\"messages\":[{\"role\":\"system\",\"content\":\"You are"
            + " the front desk of {{business}}.\"}]},\"firstMessage\":\"Front desk, how can I help?\","
            + "\"responseDelaySeconds\":0}";
    private static final String LIVE_BILLING = "{\"name\":\"Billing\",\"model\":{\"provider\":\"google\","
            + "\"model\":\"gemini-2.0-flash-live-001\",\"messages\":[{\"role\":\"system\",\"content\":\"You handle"
            + " billing for {{business}}.\"}]},\"voice\":{\"provider\":\"vapi\",\"voiceId\":\"Puck\"},"
            + "\"firstMessage\":\"Billing here.\",\"responseDelaySeconds\":0}";
    private static final String CASCADED_BILLING = "{\"name\":\"Billing\",\"transcriber\":{\"provider\":"
            + "\"deepgram\",\"language\":\"en\"},\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\","
            + "\"messages\":[{\"role\":\"system\",\"content\":\"You handle billing for {{business}}.\"}]},"
            + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"adam\",\"inputMinCharacters\":10},"
            + "\"firstMessage\":\"Billing here.\",\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0}";

    /** A squad call of {@code frontDesk} (who can hand the caller to Billing) and {@code billing}. */
    private String squadCall(UUID callId, String frontDesk, String billing) {
        String org = calls.call(callId, frontDesk, Map.of("deepgram", FakeProviders.DEEPGRAM_KEY, "openai",
                FakeProviders.OPENAI_KEY, "11labs", FakeProviders.ELEVENLABS_KEY, "google", FakeProviders.GOOGLE_KEY));
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"inboundPhoneCall\"},\"assistant\":"
                                + frontDesk + ",\"squad\":{\"members\":[{\"assistant\":" + frontDesk
                                + ",\"assistantDestinations\":[{\"type\":\"assistant\",\"assistantName\":\"Billing\","
                                + "\"message\":\"Let me pass you to billing.\",\"description\":\"invoices\"}]},"
                                + "{\"assistant\":" + billing + "}]},"
                                + "\"variableValues\":{\"business\":\"the Harbour Cafe\"}}")));
        return org;
    }

    /** Greeted by the front desk, handed to billing, answered by billing, then the caller hangs up. */
    private List<String> handedToBilling(UUID callId, String org) throws Exception {
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting to play", BOUND, () -> calls.transcript(callId).size() == 1
                    && !caller.playing() && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.say(SpeechFixtures.mulaw8k("I have a question about my bill."));
            Eventually.until("billing's greeting", BOUND, () -> calls.transcript(callId).contains("bot: Billing here."));
            Eventually.until("billing's greeting to play", BOUND, () -> !caller.playing()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());
            caller.say(SpeechFixtures.mulaw8k("Why was I charged twice?")).voiceToVoiceMs(BOUND);
            Eventually.until("billing's answer", BOUND,
                    () -> calls.transcript(callId).contains("bot: The second charge is only a hold."));
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("customer-ended-call", calls.ended(callId).path("endedReason").asText());
        return calls.transcript(callId);
    }

    @Test
    void aCascadedMemberHandsTheCallerToAGeminiLiveMemberWhoKeepsTheConversation() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = squadCall(callId, CASCADED_FRONT_DESK, LIVE_BILLING);
        FakeProviders.deepgram().script("I have a question about my bill.");
        FakeProviders.openai().script(request -> FakeOpenAi.Reply.toolCall("transferCall",
                "{\"destination\":\"Billing\"}"));
        FakeGeminiLive live = FakeProviders.geminiLive().transcripts("Why was I charged twice?")
                .script(context -> new FakeGeminiLive.Say("The second charge is only a hold."));
        int receivedBefore = live.received().size();

        List<String> transcript = handedToBilling(callId, org);

        assertEquals(List.of("bot: Front desk, how can I help?", "user: I have a question about my bill.",
                "bot: Let me pass you to billing.", "system: The call was handed to Billing.", "bot: Billing here.",
                "user: Why was I charged twice?", "bot: The second charge is only a hold."), transcript);
        JsonObject setup = live.lastSetup();
        assertEquals("models/gemini-2.0-flash-live-001", setup.getString("model"));
        assertEquals("You handle billing for the Harbour Cafe.", setup.getJsonObject("systemInstruction")
                .getJsonArray("parts").getJsonObject(0).getString("text"));
        assertEquals("Puck", setup.getJsonObject("generationConfig").getJsonObject("speechConfig")
                .getJsonObject("voiceConfig").getJsonObject("prebuiltVoiceConfig").getString("voiceName"));
        List<JsonObject> context = clientContents(live, receivedBefore).stream()
                .filter(content -> !content.getBoolean("turnComplete", true)).toList();
        assertEquals(1, context.size(), "the conversation so far, as context: " + live.received());
        JsonArray turns = context.get(0).getJsonArray("turns");
        assertEquals(new JsonObject().put("role", "model").put("parts", new JsonArray().add(new JsonObject()
                .put("text", "Front desk, how can I help?"))), turns.getJsonObject(0), turns.encode());
        assertEquals(new JsonObject().put("role", "user").put("parts", new JsonArray().add(new JsonObject()
                .put("text", "I have a question about my bill."))), turns.getJsonObject(1), turns.encode());
    }

    @Test
    void aGeminiLiveMemberHandsTheCallerToACascadedMember() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = squadCall(callId, LIVE_FRONT_DESK, CASCADED_BILLING);
        FakeProviders.geminiLive().transcripts("I have a question about my bill.")
                .script(context -> new FakeGeminiLive.Call("transferCall", "{\"destination\":\"Billing\"}"));
        FakeProviders.deepgram().script("Why was I charged twice?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("The second charge is only a hold."));

        List<String> transcript = handedToBilling(callId, org);

        assertEquals(List.of("bot: Front desk, how can I help?", "user: I have a question about my bill.",
                "bot: Let me pass you to billing.", "system: The call was handed to Billing.", "bot: Billing here.",
                "user: Why was I charged twice?", "bot: The second charge is only a hold."), transcript);
        JsonObject asked = FakeProviders.openai().lastRequest();
        assertEquals("gpt-4o", asked.getString("model"));
        String context = asked.getJsonArray("messages").encode();
        assertTrue(context.contains("You handle billing for the Harbour Cafe."), context);
        assertTrue(context.contains("I have a question about my bill."), "the conversation so far: " + context);
        assertTrue(context.contains("Why was I charged twice?"), context);
    }

    // ---- failures ----------------------------------------------------------------------------------------------

    @Test
    void aVoiceGeminiDoesNotHaveIsRefusedAtTheStart() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("gemini-live-2.5-flash-preview", ",\"firstMessage\":\"Hello.\","
                + "\"voice\":{\"provider\":\"vapi\",\"voiceId\":\"marin\"}"), KEYS);
        int connections = FakeProviders.geminiLive().connections();
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("assistant-error", calls.ended(callId).path("endedReason").asText());
        List<String> transcript = calls.transcript(callId);
        assertEquals(1, transcript.size(), transcript.toString());
        assertTrue(transcript.get(0).startsWith("system: The call could not start: model gemini-live-2.5-flash-preview"
                + " has no voice marin (its voices: Puck, Charon,"), transcript.toString());
        assertEquals(connections, FakeProviders.geminiLive().connections(), "no session was opened");
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        endsWithError(FakeGeminiLive.Failure.BAD_KEY, false, "closed the session (1007 API key not valid", "auth");
    }

    @Test
    void aRateLimitEndsTheCall() throws Exception {
        endsWithError(FakeGeminiLive.Failure.RATE_LIMITED, false, "refused the stream (429)", "rate-limited");
    }

    @Test
    void anUnavailableServiceEndsTheCall() throws Exception {
        endsWithError(FakeGeminiLive.Failure.REFUSE_503, false, "refused the stream (503)", "unavailable");
    }

    @Test
    void aSessionWhoseSetupNeverCompletesEndsTheCall() throws Exception {
        endsWithError(FakeGeminiLive.Failure.HANG, false, "answered nothing within", "timeout");
    }

    @Test
    void garbageEndsTheCall() throws Exception {
        endsWithError(FakeGeminiLive.Failure.GARBAGE, false, "sent a message that is not JSON", "protocol");
    }

    @Test
    void aModelGeminiDoesNotServeEndsTheCall() throws Exception {
        endsWithError(FakeGeminiLive.Failure.MODEL_NOT_SERVED, false, "closed the session (1008 models/", "refused");
    }

    @Test
    void anInternalErrorAtTheReplyEndsTheCallKeepingTheCallersWords() throws Exception {
        endsWithError(FakeGeminiLive.Failure.INTERNAL_ON_REPLY, true, "closed the session (1011 Internal error",
                "unavailable");
    }

    @Test
    void aGreetingNeverAnsweredEndsTheCall() throws Exception {
        endsWithError(FakeGeminiLive.Failure.SILENT, false, "answered nothing within", "timeout");
    }

    /**
     * The model fails: the call ends {@code assistant-error}, the transcript keeps the caller's words (when
     * {@code asked}) and its last line names the model, a log line says why with the kind, {@code ended} is the last
     * event with none lost, the carrier's stream is closed normally, nothing uncaught, the live-calls gauge at 0.
     */
    private void endsWithError(FakeGeminiLive.Failure failure, boolean asked, String why, String kind)
            throws Exception {
        FakeProviders.geminiLive().failure(failure);
        try (StubbedCalls.LogCapture logs = new StubbedCalls.LogCapture()) {
            UUID callId = UUID.randomUUID();
            String org = calls.call(callId, assistant("gemini-live-2.5-flash-preview", asked
                    ? ",\"firstMessageMode\":\"assistant-waits-for-user\"" : ",\"firstMessage\":\"Hello.\""), KEYS);
            try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
                if (asked) {
                    caller.say(SpeechFixtures.mulaw8k(QUESTION));
                }
                FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
                assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
                assertEquals((short) 1000, closed.code(), "the carrier's stream was closed normally: " + closed);
            }
            JsonNode ended = calls.ended(callId);
            assertNotNull(ended, "ended was reported before the stream was closed");
            assertEquals("assistant-error", ended.path("endedReason").asText(), ended.toString());
            List<JsonNode> events = calls.events(callId);
            assertEquals(ended, events.get(events.size() - 1), "ended is the last event");
            for (int i = 0; i < events.size(); i++) {
                assertEquals(i, events.get(i).path("sequence").asLong(), "one event per sequence, none lost");
            }
            List<String> transcript = calls.transcript(callId);
            if (asked) {
                assertEquals("user: " + QUESTION, transcript.get(0), transcript.toString());
            }
            assertEquals("system: The call ended: the model (google) failed.", transcript.get(transcript.size() - 1),
                    transcript.toString());
            assertTrue(logs.logged("the model (provider google) failed"), "a log line names it");
            assertTrue(logs.logged(why), "the log says why: " + why);
            assertTrue(logs.logged("(" + kind + ")"), "the log gives the kind: " + kind);
            Eventually.until("the live-calls gauge to return to 0", BOUND, () -> StubbedCalls.liveCalls() == 0);
            assertEquals(List.of(), logs.uncaught(), "nothing uncaught was logged");
        }
    }
}
