package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeOpenAiRealtime;
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
 * {@code model: {provider: openai, model: gpt-realtime…}} through the OpenAI Realtime fake and the runtime's real
 * media sockets, with no transcriber and no voice: the session the model is given, a phone call in μ-law end to end
 * and a web call in 24 kHz PCM, a barge-in whose truncation is what the caller heard, a tool call answered through
 * call-service, an end-call phrase, and each way the model fails.
 */
@QuarkusTest
class OpenAiRealtimeTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String GREETING = "Harbour Cafe, hello.";
    private static final String QUESTION = "What time do you open tomorrow?";
    private static final String ANSWER = "We open at nine.";
    private static final Map<String, String> KEYS = Map.of("openai", FakeProviders.OPENAI_KEY);

    @InjectWireMock
    WireMockServer wireMock;

    private final ObjectMapper json = new ObjectMapper();
    private StubbedCalls calls;

    @BeforeEach
    void setUp() throws Exception {
        calls = new StubbedCalls(wireMock);
        TranscriberScenarios.warmUp(wireMock, calls);
        FakeProviders.openAiRealtime().failure(FakeOpenAiRealtime.Failure.NONE).transcripts(QUESTION)
                .script(context -> new FakeOpenAiRealtime.Say(ANSWER));
    }

    @AfterEach
    void tearDown() {
        FakeProviders.openAiRealtime().failure(FakeOpenAiRealtime.Failure.NONE);
    }

    /** A realtime assistant: no transcriber, no voice unless {@code extra} gives one. */
    private static String assistant(String model, String extra) {
        return "{\"model\":{\"provider\":\"openai\",\"model\":\"" + model + "\",\"maxTokens\":300,"
                + "\"messages\":[{\"role\":\"system\",\"content\":\"You answer for {{business}}.\"}]"
                + "},\"responseDelaySeconds\":0" + extra + "}";
    }

    private static void greeted(FakeCaller caller) {
        Eventually.until("the greeting to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                && !caller.playing() && !caller.receivedMarks().isEmpty()
                && caller.echoedMarks().size() == caller.receivedMarks().size());
    }

    @Test
    void aPhoneCallIsHeldByTheRealtimeModelInMuLawEndToEnd() throws Exception {
        FakeOpenAiRealtime openai = FakeProviders.openAiRealtime();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("gpt-realtime", ",\"firstMessage\":\"" + GREETING + "\","
                + "\"voice\":{\"provider\":\"openai\",\"voiceId\":\"marin\"}"), KEYS,
                "{\"business\":\"Harbour Cafe\"}");
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            greeted(caller);
            int greetingBytes = caller.playedAudio().length;
            assertTrue(greetingBytes >= SpeechFixtures.mulaw8k(GREETING).length,
                    "the whole greeting was played: " + greetingBytes);
            FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k(QUESTION));
            assertTrue(question.voiceToVoiceMs(BOUND) > 0, "the reply was heard after the question");
            Eventually.until("the reply in the transcript", BOUND,
                    () -> calls.transcript(callId).contains("bot: " + ANSWER));
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals(List.of("bot: " + GREETING, "user: " + QUESTION, "bot: " + ANSWER), calls.transcript(callId));

        assertEquals("Bearer " + FakeProviders.OPENAI_KEY, openai.lastAuthorization());
        assertNull(openai.lastBetaHeader(), "the GA interface");
        assertEquals("gpt-realtime", openai.lastModel(), "/realtime?model=<id>");
        JsonObject session = openai.lastSession();
        assertEquals("realtime", session.getString("type"));
        assertEquals("You answer for Harbour Cafe.", session.getString("instructions"), "variables filled in");
        assertEquals(300, session.getInteger("max_output_tokens"));
        JsonObject audio = session.getJsonObject("audio");
        assertEquals("audio/pcmu", audio.getJsonObject("input").getJsonObject("format").getString("type"));
        assertEquals("audio/pcmu", audio.getJsonObject("output").getJsonObject("format").getString("type"));
        assertEquals("marin", audio.getJsonObject("output").getString("voice"), "voice.voiceId is the voice");
        assertEquals("server_vad", audio.getJsonObject("input").getJsonObject("turn_detection").getString("type"));
        List<JsonObject> creates = openai.received().stream()
                .filter(event -> "response.create".equals(event.getString("type"))).toList();
        assertTrue(creates.stream().anyMatch(create -> create.getJsonObject("response").getString("instructions", "")
                .endsWith("nothing else: " + GREETING)), "the first message is asked for as written: " + creates);

        JsonNode ended = calls.ended(callId);
        assertEquals("customer-ended-call", ended.path("endedReason").asText(), ended.toString());
        JsonNode usage = ended.path("usage");
        assertEquals(200, usage.path("llmPromptTokens").asLong(), "two replies' input tokens: " + usage);
        assertEquals(100, usage.path("llmCompletionTokens").asLong(), usage.toString());
        assertEquals(0, usage.path("ttsCharacters").asLong(), "no voice of its own: " + usage);
        // The two replies' tokens as OpenAI detailed them: text and audio, the cached input apart, nothing else.
        assertEquals(new java.util.TreeMap<>(Map.of(
                "openai gpt-realtime text-input-tokens tokens", 8L,
                "openai gpt-realtime audio-input-tokens tokens", 64L,
                "openai gpt-realtime cached-text-input-tokens tokens", 32L,
                "openai gpt-realtime cached-audio-input-tokens tokens", 96L,
                "openai gpt-realtime text-output-tokens tokens", 20L,
                "openai gpt-realtime audio-output-tokens tokens", 80L)), UsageLines.of(usage));

        // The greeting is a reply the runtime asked for, with no model request of a caller's turn: its first audio is
        // no model's first token (timed from 0 it was days long, the histogram's p95 beyond its last bucket).
        String metrics = RestAssured.get("/q/metrics").asString();
        double firstTokenMax = metrics.lines()
                .filter(line -> line.startsWith("voice_runtime_stage_seconds_max{") && line.contains("llm_first_token"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).max().orElse(-1);
        assertTrue(firstTokenMax >= 0 && firstTokenMax < 60, "the model's first token, at most: " + firstTokenMax);
    }

    @Test
    void aWebCallSpeaksPcmAt24KilohertzBothWays() throws Exception {
        FakeOpenAiRealtime openai = FakeProviders.openAiRealtime();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("gpt-realtime-mini", ",\"firstMessage\":\"Hi, web caller.\""),
                KEYS);
        String url = "ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token=" + calls.token(callId, org);
        try (FakeWebCaller caller = FakeWebCaller.connect(url)) {
            greeted(caller);
            assertTrue(caller.say(SpeechFixtures.pcm16k(QUESTION)).voiceToVoiceMs(BOUND) > 0);
            Eventually.until("the reply in the transcript", BOUND,
                    () -> calls.transcript(callId).contains("bot: " + ANSWER));
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals(List.of("bot: Hi, web caller.", "user: " + QUESTION, "bot: " + ANSWER),
                calls.transcript(callId));
        assertEquals("gpt-realtime-mini", openai.lastModel());
        JsonObject audio = openai.lastSession().getJsonObject("audio");
        JsonObject pcm = new JsonObject().put("type", "audio/pcm").put("rate", 24000);
        assertEquals(pcm, audio.getJsonObject("input").getJsonObject("format"));
        assertEquals(pcm, audio.getJsonObject("output").getJsonObject("format"));
        assertNull(audio.getJsonObject("output").getString("voice"), "the model's own voice when none is named");
    }

    @Test
    void theCallerInterruptsAndTheModelForgetsWhatWasNotHeard() throws Exception {
        String menu = "Our menu has many dishes. There are soups and salads. There are sandwiches and wraps."
                + " There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
        FakeOpenAiRealtime openai = FakeProviders.openAiRealtime().transcripts("Tell me about the menu.",
                "Just the prices please.").script(context -> new FakeOpenAiRealtime.Say(
                        context.callerText().startsWith("Tell") ? menu : "Everything is under ten pounds."));
        int truncationsBefore = openai.truncations().size();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("gpt-realtime",
                ",\"firstMessageMode\":\"assistant-waits-for-user\""), KEYS, "{\"business\":\"Harbour Cafe\"}");
        long heardMillis;
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k("Tell me about the menu.")).voiceToVoiceMs(BOUND);
            Eventually.until("a second of the reply to play", BOUND, () -> caller.playedAudio().length > 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k("Just the prices please."));
            assertTrue(interruption.bargeInMs(BOUND) > 0, "the runtime cleared the caller's audio");
            Eventually.until("the truncation", BOUND, () -> openai.truncations().size() > truncationsBefore);
            heardMillis = caller.playedAudio().length / 8;
            interruption.voiceToVoiceMs(BOUND);
            Eventually.until("the answer to the interruption", BOUND, () -> calls.transcript(callId).size() == 4);
        }
        FakeOpenAiRealtime.Truncation truncation = openai.truncations().get(truncationsBefore);
        long itemMillis = openai.audioMillis(truncation.itemId());
        assertTrue(itemMillis > heardMillis, "the truncated item is the reply cut short (" + itemMillis + " ms)");
        assertEquals(0, truncation.contentIndex());
        assertTrue(Math.abs(truncation.audioEndMs() - heardMillis) <= 20, "truncated at " + truncation.audioEndMs()
                + " ms, the caller heard " + heardMillis + " ms: within one 20 ms frame");
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
        FakeOpenAiRealtime openai = FakeProviders.openAiRealtime().transcripts(question).script(context ->
                context.toolOutput() != null ? new FakeOpenAiRealtime.Say("It ships tomorrow.")
                        : new FakeOpenAiRealtime.Call("lookup_order", "{\"order\":42}"));
        int itemsBefore = openai.items().size();
        UUID callId = UUID.randomUUID();
        String tools = "[{\"type\":\"function\",\"function\":{\"name\":\"lookup_order\",\"description\":\"Finds an"
                + " order.\",\"parameters\":{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"number\"}},"
                + "\"required\":[\"order\"]}},\"server\":{\"url\":\"https://tools.example.com/orders\"},"
                + "\"messages\":[{\"type\":\"request-start\",\"content\":\"Let me look that up.\"}]}]";
        String org = calls.call(callId, "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-realtime-preview\","
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
        JsonArray offered = openai.lastSession().getJsonArray("tools");
        assertEquals("lookup_order", offered.getJsonObject(0).getString("name"), offered.encode());
        assertEquals("function", offered.getJsonObject(0).getString("type"));
        assertEquals("number", offered.getJsonObject(0).getJsonObject("parameters").getJsonObject("properties")
                .getJsonObject("order").getString("type"));
        JsonNode asked = json.readTree(wireMock.findAll(postRequestedFor(
                urlEqualTo("/internal/call/" + callId + "/runtime/tool-calls"))).get(0).getBodyAsString());
        JsonNode call = asked.path("toolCallList").path(0);
        assertEquals("lookup_order", call.path("function").path("name").asText());
        List<JsonObject> outputs = openai.items().subList(itemsBefore, openai.items().size()).stream()
                .filter(item -> "function_call_output".equals(item.getString("type"))).toList();
        assertEquals(1, outputs.size(), openai.items().toString());
        assertEquals(call.path("id").asText(), outputs.get(0).getString("call_id"), "the model's own call id");
        assertEquals("Order 42 ships tomorrow.", outputs.get(0).getString("output"));
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
    }

    @Test
    void anEndCallPhraseEndsTheCallOnceItIsHeard() throws Exception {
        FakeProviders.openAiRealtime().script(context -> new FakeOpenAiRealtime.Say("We open at nine. Goodbye now."));
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("gpt-realtime", ",\"firstMessage\":\"" + GREETING + "\","
                + "\"endCallPhrases\":[\"goodbye now\"]"), KEYS);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            greeted(caller);
            caller.say(SpeechFixtures.mulaw8k(QUESTION));
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
        }
        JsonNode ended = calls.ended(callId);
        assertEquals("assistant-said-end-call-phrase", ended.path("endedReason").asText(), ended.toString());
        assertEquals(List.of("bot: " + GREETING, "user: " + QUESTION, "bot: We open at nine. Goodbye now."),
                calls.transcript(callId));
    }

    @Test
    void theEndCallToolEndsTheCallOnceItsGoodbyeHasPlayed() throws Exception {
        FakeOpenAiRealtime openai = FakeProviders.openAiRealtime().transcripts("That is all, thanks.")
                .script(context -> context.toolOutput() != null ? new FakeOpenAiRealtime.Say("Goodbye.")
                        : new FakeOpenAiRealtime.Call("endCall", "{}"));
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-realtime\","
                + "\"tools\":[{\"type\":\"endCall\"}]},\"responseDelaySeconds\":0,"
                + "\"firstMessageMode\":\"assistant-waits-for-user\"}", KEYS);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k("That is all, thanks."));
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
        }
        assertEquals("assistant-ended-call", calls.ended(callId).path("endedReason").asText());
        assertEquals("endCall", openai.lastSession().getJsonArray("tools").getJsonObject(0).getString("name"),
                "the end-call tool is offered as a function");
        assertEquals("user: That is all, thanks.", calls.transcript(callId).get(0), calls.transcript(callId).toString());
    }

    @Test
    void silenceEndsTheCallWithTheEndCallMessageSpokenByTheModel() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("gpt-realtime", ",\"firstMessage\":\"" + GREETING + "\","
                + "\"silenceTimeoutSeconds\":1,\"endCallMessage\":\"No one is there. Goodbye.\""), KEYS);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
            assertTrue(caller.playedAudio().length >= SpeechFixtures.mulaw8k(GREETING).length
                    + SpeechFixtures.mulaw8k("No one is there. Goodbye.").length - 320,
                    "the greeting and the goodbye were both heard");
        }
        assertEquals("silence-timed-out", calls.ended(callId).path("endedReason").asText());
        assertEquals(List.of("bot: " + GREETING, "bot: No one is there. Goodbye."), calls.transcript(callId));
    }

    // ---- squads ------------------------------------------------------------------------------------------------

    private static final String CASCADED_FRONT_DESK = "{\"name\":\"Front desk\",\"transcriber\":{\"provider\":"
            + "\"deepgram\",\"language\":\"en\"},\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\","
            + "\"messages\":[{\"role\":\"system\",\"content\":\"You are the front desk of {{business}}.\"}]},"
            + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\",\"inputMinCharacters\":10},"
            + "\"firstMessage\":\"Front desk, how can I help?\",\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0}";
    private static final String REALTIME_FRONT_DESK = "{\"name\":\"Front desk\",\"model\":{\"provider\":\"openai\","
            + "\"model\":\"gpt-realtime\",\"messages\":[{\"role\":\"system\",\"content\":\"You are the front desk of"
            + " {{business}}.\"}]},\"firstMessage\":\"Front desk, how can I help?\",\"responseDelaySeconds\":0}";
    private static final String REALTIME_BILLING = "{\"name\":\"Billing\",\"model\":{\"provider\":\"openai\","
            + "\"model\":\"gpt-realtime-mini\",\"messages\":[{\"role\":\"system\",\"content\":\"You handle billing for"
            + " {{business}}.\"}]},\"voice\":{\"provider\":\"openai\",\"voiceId\":\"cedar\"},"
            + "\"firstMessage\":\"Billing here.\",\"responseDelaySeconds\":0}";
    private static final String CASCADED_BILLING = "{\"name\":\"Billing\",\"transcriber\":{\"provider\":"
            + "\"deepgram\",\"language\":\"en\"},\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\","
            + "\"messages\":[{\"role\":\"system\",\"content\":\"You handle billing for {{business}}.\"}]},"
            + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"adam\",\"inputMinCharacters\":10},"
            + "\"firstMessage\":\"Billing here.\",\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0}";

    /** A squad call of {@code frontDesk} (who can hand the caller to Billing) and {@code billing}. */
    private String squadCall(UUID callId, String frontDesk, String billing) {
        String org = calls.call(callId, frontDesk, Map.of("deepgram", FakeProviders.DEEPGRAM_KEY, "openai",
                FakeProviders.OPENAI_KEY, "11labs", FakeProviders.ELEVENLABS_KEY));
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
    void aCascadedMemberHandsTheCallerToARealtimeMemberWhoKeepsTheConversation() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = squadCall(callId, CASCADED_FRONT_DESK, REALTIME_BILLING);
        FakeProviders.deepgram().script("I have a question about my bill.");
        FakeProviders.openai().script(request -> FakeOpenAi.Reply.toolCall("transferCall",
                "{\"destination\":\"Billing\"}"));
        FakeOpenAiRealtime openai = FakeProviders.openAiRealtime().transcripts("Why was I charged twice?")
                .script(context -> new FakeOpenAiRealtime.Say("The second charge is only a hold."));
        int itemsBefore = openai.items().size();

        List<String> transcript = handedToBilling(callId, org);

        assertEquals(List.of("bot: Front desk, how can I help?", "user: I have a question about my bill.",
                "bot: Let me pass you to billing.", "system: The call was handed to Billing.", "bot: Billing here.",
                "user: Why was I charged twice?", "bot: The second charge is only a hold."), transcript);
        JsonObject session = openai.lastSession();
        assertEquals("You handle billing for the Harbour Cafe.", session.getString("instructions"));
        assertEquals("cedar", session.getJsonObject("audio").getJsonObject("output").getString("voice"));
        assertEquals("gpt-realtime-mini", openai.lastModel());
        List<JsonObject> items = openai.items().subList(itemsBefore, openai.items().size());
        String said = items.toString();
        assertTrue(said.contains("I have a question about my bill.") && said.contains("Front desk, how can I help?"),
                "the conversation so far goes to the realtime model: " + said);
    }

    @Test
    void aRealtimeMemberHandsTheCallerToACascadedMember() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = squadCall(callId, REALTIME_FRONT_DESK, CASCADED_BILLING);
        FakeProviders.openAiRealtime().transcripts("I have a question about my bill.")
                .script(context -> new FakeOpenAiRealtime.Call("transferCall", "{\"destination\":\"Billing\"}"));
        FakeProviders.deepgram().script("Why was I charged twice?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text(
                "The second charge is only a hold."));

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
    void aVoiceTheRealtimeModelDoesNotHaveIsRefusedAtTheStart() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("gpt-realtime", ",\"firstMessage\":\"Hello.\","
                + "\"voice\":{\"provider\":\"openai\",\"voiceId\":\"nova\"}"), KEYS);
        int connections = FakeProviders.openAiRealtime().connections();
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("assistant-error", calls.ended(callId).path("endedReason").asText());
        List<String> transcript = calls.transcript(callId);
        assertEquals(1, transcript.size(), transcript.toString());
        assertTrue(transcript.get(0).startsWith("system: The call could not start: model gpt-realtime has no voice nova"
                + " (its voices: alloy, ash,"), transcript.toString());
        assertEquals(connections, FakeProviders.openAiRealtime().connections(), "no session was opened");
    }

    @Test
    void aRefusedKeyEndsTheCall() throws Exception {
        endsWithError(FakeOpenAiRealtime.Failure.BAD_KEY, false,
                "answered an error (invalid_request_error invalid_api_key)", "auth");
    }

    @Test
    void aRateLimitEndsTheCall() throws Exception {
        endsWithError(FakeOpenAiRealtime.Failure.RATE_LIMITED, false, "refused the stream (429)", "rate-limited");
    }

    @Test
    void aSessionThatNeverAnswersEndsTheCall() throws Exception {
        endsWithError(FakeOpenAiRealtime.Failure.HANG, false, "answered nothing within", "timeout");
    }

    @Test
    void garbageEndsTheCall() throws Exception {
        endsWithError(FakeOpenAiRealtime.Failure.GARBAGE, false, "sent an event that is not JSON", "protocol");
    }

    @Test
    void aServerErrorAtTheReplyEndsTheCallKeepingTheCallersWords() throws Exception {
        endsWithError(FakeOpenAiRealtime.Failure.SERVER_ERROR_ON_RESPONSE, true, "answered an error (server_error)",
                "unavailable");
    }

    /**
     * The model fails: the call ends {@code assistant-error}, the transcript keeps the caller's words (when
     * {@code asked}) and its last line names the model, a log line says why with the kind, {@code ended} is the last
     * event with none lost, the carrier's stream is closed normally, nothing uncaught, the live-calls gauge at 0.
     */
    private void endsWithError(FakeOpenAiRealtime.Failure failure, boolean asked, String why, String kind)
            throws Exception {
        FakeProviders.openAiRealtime().failure(failure);
        try (StubbedCalls.LogCapture logs = new StubbedCalls.LogCapture()) {
            UUID callId = UUID.randomUUID();
            String org = calls.call(callId, assistant("gpt-realtime", asked
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
            assertEquals("system: The call ended: the model (openai) failed.", transcript.get(transcript.size() - 1),
                    transcript.toString());
            assertTrue(logs.logged("the model (provider openai) failed"), "a log line names it");
            assertTrue(logs.logged(why), "the log says why: " + why);
            assertTrue(logs.logged("(" + kind + ")"), "the log gives the kind: " + kind);
            Eventually.until("the live-calls gauge to return to 0", BOUND, () -> StubbedCalls.liveCalls() == 0);
            assertEquals(List.of(), logs.uncaught(), "nothing uncaught was logged");
        }
    }
}
