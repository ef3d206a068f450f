package dev.voiceplane.local;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeOpenAiRealtime;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Realtime (speech-to-speech) models through the whole stack (docs/voice-runtime.md, "Realtime models"), on the
 * shared held-calls stack ({@link HeldCalls}): assistants created through the API whose model is a realtime model,
 * held through the gateway with the provider's fake speaking its real protocol. A phone call (Twilio's media stream)
 * and a web call, each from the greeting to the end-call phrase, read back through the API; a barge-in whose
 * truncation is what the caller heard, within one 20 ms frame; a function tool answered by the organisation's server
 * ({@code tool-calls}), its result reaching the model; squad hand-offs from a realtime member to a cascaded one and
 * back, the conversation kept; the end-of-call report with the transcript, the usage the model reported and its cost.
 *
 * <p>Each test runs once per {@link RealtimeCase}: a provider is one more case (its model, its fake in the words of
 * {@link RealtimeFake}), not a copy of the tests.
 */
@ExtendWith(HeldCalls.Shared.class)
class RealtimeIT {

    private static final String GREETING = "Harbour Cafe, hello.";
    private static final String QUESTION = "What time do you open tomorrow?";
    private static final String ANSWER = "We open at nine. Goodbye.";
    /** The default rate card's LLM prices (docs/calls.md, "Rate card"), USD per 1,000 tokens. */
    private static final BigDecimal PROMPT_PER_1K = new BigDecimal("0.0025");
    private static final BigDecimal COMPLETION_PER_1K = new BigDecimal("0.01");

    private static HeldCalls calls;

    @BeforeAll
    static void stack(HeldCalls shared) {
        calls = shared;
    }

    // ---- the provider cases ------------------------------------------------------------------------------------

    /** What the model is asked in: the caller's last words, and the result of a tool it called (else null). */
    record Heard(String callerText, String toolOutput) {
    }

    /** What the model answers: speech, or a call of a function with its arguments (JSON text). */
    record Answer(String say, String function, String arguments) {
        static Answer say(String text) {
            return new Answer(text, null, null);
        }

        static Answer call(String function, String arguments) {
            return new Answer(null, function, arguments);
        }
    }

    /** A truncation the model received: the item's length and where it was cut, in milliseconds of its audio. */
    record Cut(long itemMillis, long audioEndMs) {
    }

    /** A function's result the model received, for its call {@code callId}. */
    record ToolOutput(String callId, String output) {
    }

    /** Tokens a reply of the model was reported to use. */
    record Usage(long prompt, long completion) {
    }

    /**
     * What the fake saw, in order since its start: each list only grows, so what one call added is the part after
     * what was seen before it ({@link #since}). {@code handedOver}: the texts of the conversation items a new model
     * socket was given; {@code instructions}: the instructions of the latest {@code session.update}.
     */
    record Seen(List<Cut> cuts, List<ToolOutput> toolOutputs, List<String> handedOver, List<Usage> usages,
            String instructions) {
        Seen since(Seen before) {
            return new Seen(cuts.subList(before.cuts.size(), cuts.size()),
                    toolOutputs.subList(before.toolOutputs.size(), toolOutputs.size()),
                    handedOver.subList(before.handedOver.size(), handedOver.size()),
                    usages.subList(before.usages.size(), usages.size()), instructions);
        }
    }

    /** A realtime provider's fake as these tests script and read it, in words common to the providers. */
    interface RealtimeFake {
        /** The caller's utterances, in order over each session, as the model's transcription gives them. */
        void hears(String... utterances);

        /** How the model answers. */
        void answers(Function<Heard, Answer> script);

        Seen seen();
    }

    /**
     * A realtime provider: its {@code model} JSON fields ({@code "provider":…,"model":…}), a {@code voice} of its
     * own (the assistant's {@code voice} object) and its fake on the stack.
     */
    record RealtimeCase(String name, String model, String voice, Function<HeldCalls, RealtimeFake> fake) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<RealtimeCase> cases() {
        return Stream.of(new RealtimeCase("OpenAI Realtime", "\"provider\":\"openai\",\"model\":\"gpt-realtime\"",
                "{\"provider\":\"openai\",\"voiceId\":\"marin\"}",
                stack -> new OpenAiRealtime(stack.fakes().openAiRealtime())));
    }

    /** {@link FakeOpenAiRealtime} in the words of {@link RealtimeFake}. */
    private record OpenAiRealtime(FakeOpenAiRealtime fake) implements RealtimeFake {
        OpenAiRealtime {
            fake.failure(FakeOpenAiRealtime.Failure.NONE).delayMillis(0);
        }

        @Override
        public void hears(String... utterances) {
            fake.transcripts(utterances);
        }

        @Override
        public void answers(Function<Heard, Answer> script) {
            fake.script(context -> {
                Answer answer = script.apply(new Heard(context.callerText(), context.toolOutput()));
                return answer.say() != null ? new FakeOpenAiRealtime.Say(answer.say())
                        : new FakeOpenAiRealtime.Call(answer.function(), answer.arguments());
            });
        }

        @Override
        public Seen seen() {
            List<Cut> cuts = fake.truncations().stream()
                    .map(cut -> new Cut(fake.audioMillis(cut.itemId()), cut.audioEndMs())).toList();
            List<ToolOutput> outputs = fake.items().stream()
                    .filter(item -> "function_call_output".equals(item.getString("type")))
                    .map(item -> new ToolOutput(item.getString("call_id"), item.getString("output"))).toList();
            List<String> handedOver = new ArrayList<>();
            for (JsonObject item : fake.items()) {
                JsonArray content = item.getJsonArray("content");
                if ("message".equals(item.getString("type")) && content != null && !content.isEmpty()) {
                    handedOver.add(content.getJsonObject(0).getString("text"));
                }
            }
            List<Usage> usages = fake.usages().stream()
                    .map(usage -> new Usage(usage.getLong("input_tokens", 0L), usage.getLong("output_tokens", 0L)))
                    .toList();
            JsonObject session = fake.lastSession();
            return new Seen(cuts, outputs, handedOver, usages, session == null ? null : session.getString("instructions"));
        }
    }

    // ---- calls -------------------------------------------------------------------------------------------------

    /** A realtime assistant of {@code provider} with {@code extra} fields, created through the API. */
    private static String assistant(RealtimeCase provider, String name, String extra) {
        return calls.assistant("{\"name\":\"" + name + "\",\"model\":{" + provider.model()
                + ",\"messages\":[{\"role\":\"system\",\"content\":\"You answer the phone for a cafe.\"}]},"
                + "\"voice\":" + provider.voice() + ",\"responseDelaySeconds\":0" + extra + "}");
    }

    private static boolean playedOut(FakeCaller caller) {
        return !caller.playing() && caller.echoedMarks().size() == caller.receivedMarks().size();
    }

    private static void greeted(FakeCaller caller) {
        HeldCalls.eventually("the greeting to be heard and played out", HeldCalls.CONVERSATION_STEP,
                () -> caller.firstAudioNanos() > 0 && !caller.receivedMarks().isEmpty() && playedOut(caller));
    }

    /** A Twilio call of {@code assistantId} through the gateway: the number, the carrier's call, its stream. */
    private record PhoneCall(HeldCalls.TwilioNumber number, String sid, HeldCalls.Stream stream) {
        static PhoneCall to(String name, String owner) {
            HeldCalls.TwilioNumber number = calls.twilioNumber(name, owner);
            String sid = HeldCalls.callSid();
            calls.expectCallUpdates(number, sid);
            HeldCalls.Stream stream = calls.answer(number, sid);
            calls.carrierStatus(number, sid, "in-progress", 1, null);
            return new PhoneCall(number, sid, stream);
        }

        FakeTwilioCaller connect() throws Exception {
            return calls.connect(stream);
        }

        JsonNode ended(int seconds) {
            calls.carrierStatus(number, sid, "completed", 2, seconds);
            return calls.endedCall(stream.callId());
        }
    }

    // ---- the tests ---------------------------------------------------------------------------------------------

    /**
     * A phone call from the greeting to the end-call phrase, and the end-of-call report sent to the organisation's
     * server URL: its transcript, the tokens the model's replies reported as the call's usage, and their cost.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aPhoneCallIsHeldFromTheGreetingToTheEndCallPhraseAndReported(RealtimeCase provider) throws Exception {
        RealtimeFake fake = provider.fake().apply(calls);
        fake.hears(QUESTION);
        fake.answers(heard -> Answer.say(ANSWER));
        String server = "realtime-report-" + provider.name().hashCode();
        String assistantId = assistant(provider, "realtime phone", ",\"firstMessage\":\"" + GREETING + "\","
                + "\"endCallPhrases\":[\"goodbye\"],\"serverUrl\":\"" + calls.server(server) + "\","
                + "\"serverMessages\":[\"end-of-call-report\"]");
        Seen before = fake.seen();
        PhoneCall call = PhoneCall.to("realtime phone", "\"assistantId\":\"" + assistantId + "\"");
        try (FakeTwilioCaller caller = call.connect()) {
            greeted(caller);
            assertTrue(caller.playedAudio().length >= SpeechFixtures.mulaw8k(GREETING).length - 160,
                    "the whole greeting was heard");
            assertTrue(caller.say(SpeechFixtures.mulaw8k(QUESTION)).voiceToVoiceMs(HeldCalls.CONVERSATION_STEP) > 0,
                    "the answer was heard after the question");
            FakeCaller.Closed closed = caller.closed().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call after the end-call phrase: " + closed);
        }
        JsonNode ended = call.ended(6);
        assertEquals("assistant-said-end-call-phrase", ended.path("endedReason").asText(), ended.toString());
        List<String> transcript = List.of("bot: " + GREETING, "user: " + QUESTION, "bot: " + ANSWER);
        assertEquals(transcript, HeldCalls.messages(ended), ended.toString());

        Seen seen = fake.seen().since(before);
        assertEquals("You answer the phone for a cafe.", seen.instructions());
        long prompt = seen.usages().stream().mapToLong(Usage::prompt).sum();
        long completion = seen.usages().stream().mapToLong(Usage::completion).sum();
        assertTrue(prompt > 0 && completion > 0, "the fake reported usage: " + seen.usages());
        HeldCalls.eventually("the end-of-call report", () -> calls.received(server, call.stream().callId()).stream()
                .anyMatch(message -> "end-of-call-report".equals(message.path("type").asText())));
        JsonNode report = calls.received(server, call.stream().callId()).stream()
                .filter(message -> "end-of-call-report".equals(message.path("type").asText())).findFirst()
                .orElseThrow();
        assertEquals("assistant-said-end-call-phrase", report.path("endedReason").asText(), report.toString());
        assertEquals("AI: " + GREETING + "\nUser: " + QUESTION + "\nAI: " + ANSWER + "\n",
                report.path("transcript").asText(), report.toString());
        JsonNode cost = report.path("call").path("costBreakdown");
        assertEquals(prompt, cost.path("llmPromptTokens").asLong(), "the replies' input tokens: " + cost);
        assertEquals(completion, cost.path("llmCompletionTokens").asLong(), "the replies' output tokens: " + cost);
        assertEquals(0, cost.path("ttsCharacters").asLong(), "no voice of the runtime's: " + cost);
        BigDecimal llm = BigDecimal.valueOf(prompt).multiply(PROMPT_PER_1K)
                .add(BigDecimal.valueOf(completion).multiply(COMPLETION_PER_1K))
                .divide(BigDecimal.valueOf(1000), 6, RoundingMode.HALF_UP);
        assertEquals(0, llm.compareTo(cost.path("llm").decimalValue()), "the tokens at the rate card: " + cost);
        assertEquals(0, cost.path("total").decimalValue().compareTo(report.path("call").path("cost").decimalValue()),
                report.path("call").toString());
        assertTrue(cost.path("total").decimalValue().compareTo(llm) > 0, "the call's cost holds the model's: " + cost);
        assertEquals(report.path("call").path("costBreakdown"), ended.path("costBreakdown"),
                "the report's cost is the call's, as the API reads it back");
    }

    /** A web call (docs/web-calls.md) created through the API, from the greeting to the end-call phrase. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aWebCallIsHeldFromTheGreetingToTheEndCallPhrase(RealtimeCase provider) throws Exception {
        RealtimeFake fake = provider.fake().apply(calls);
        fake.hears(QUESTION);
        fake.answers(heard -> Answer.say(ANSWER));
        String assistantId = assistant(provider, "realtime web", ",\"firstMessage\":\"" + GREETING + "\","
                + "\"endCallPhrases\":[\"goodbye\"]");
        JsonNode created = HeldCalls.read(calls.as(HeldCalls.KEY).body("{\"assistantId\":\"" + assistantId + "\"}")
                .when().post("/call/web").then().statusCode(201).extract().asString());
        String callId = created.path("id").asText();
        try (FakeWebCaller caller = FakeWebCaller.connect(created.path("webCallUrl").asText())) {
            greeted(caller);
            assertTrue(caller.say(SpeechFixtures.pcm16k(QUESTION)).voiceToVoiceMs(HeldCalls.CONVERSATION_STEP) > 0,
                    "the answer was heard after the question");
            FakeCaller.Closed closed = caller.closed().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call after the end-call phrase: " + closed);
        }
        JsonNode ended = calls.endedCall(callId);
        assertEquals("webCall", ended.path("type").asText(), ended.toString());
        assertEquals("assistant-said-end-call-phrase", ended.path("endedReason").asText(), ended.toString());
        assertEquals(List.of("bot: " + GREETING, "user: " + QUESTION, "bot: " + ANSWER), HeldCalls.messages(ended),
                ended.toString());
    }

    /**
     * The caller speaks over a long reply: the reply stops, and the model is told to forget what the caller did not
     * hear: the item playing is cut at the milliseconds the caller heard (counted in the frames the caller played
     * before its interruption was answered by the clear), within one 20 ms frame.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aBargeInCutsTheModelsMemoryAtWhatTheCallerHeard(RealtimeCase provider) throws Exception {
        String menu = "Our menu has many dishes. There are soups and salads. There are sandwiches and wraps."
                + " There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
        String prices = "Everything is under ten pounds.";
        RealtimeFake fake = provider.fake().apply(calls);
        fake.hears("Tell me about the menu.", "Just the prices please.");
        fake.answers(heard -> Answer.say(heard.callerText().startsWith("Tell") ? menu : prices));
        String assistantId = assistant(provider, "realtime barge-in",
                ",\"firstMessageMode\":\"assistant-waits-for-user\"");
        Seen before = fake.seen();
        PhoneCall call = PhoneCall.to("realtime barge-in", "\"assistantId\":\"" + assistantId + "\"");
        long heardMillis;
        try (FakeTwilioCaller caller = call.connect()) {
            caller.say(SpeechFixtures.mulaw8k("Tell me about the menu.")).voiceToVoiceMs(HeldCalls.CONVERSATION_STEP);
            HeldCalls.eventually("a second of the menu to play", HeldCalls.CONVERSATION_STEP,
                    () -> caller.playedAudio().length > 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k("Just the prices please."));
            assertTrue(interruption.bargeInMs(HeldCalls.CONVERSATION_STEP) > 0, "the runtime cleared the caller's audio");
            HeldCalls.eventually("the truncation", HeldCalls.CONVERSATION_STEP,
                    () -> !fake.seen().since(before).cuts().isEmpty());
            // μ-law at 8 kHz: 8 bytes a millisecond; the far end dropped the frames after the one playing.
            heardMillis = caller.playedAudio().length / 8;
            assertTrue(interruption.voiceToVoiceMs(HeldCalls.CONVERSATION_STEP) > 0, "the prices were heard");
            HeldCalls.eventually("the answer to the interruption to play", HeldCalls.CONVERSATION_STEP,
                    () -> playedOut(caller));
            caller.stop().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        JsonNode ended = call.ended(20);
        Cut cut = fake.seen().since(before).cuts().get(0);
        assertTrue(cut.itemMillis() > heardMillis, "the item cut is the menu cut short: " + cut);
        assertTrue(Math.abs(cut.audioEndMs() - heardMillis) <= 20, "cut at " + cut.audioEndMs() + " ms, the caller"
                + " heard " + heardMillis + " ms: within one 20 ms frame");
        List<String> transcript = HeldCalls.messages(ended);
        assertEquals(4, transcript.size(), transcript.toString());
        assertEquals("user: Tell me about the menu.", transcript.get(0), transcript.toString());
        assertTrue(transcript.get(1).startsWith("bot: Our menu") && transcript.get(1).length() < "bot: ".length()
                + menu.length(), "the interrupted reply keeps what was heard: " + transcript);
        assertEquals(List.of("user: Just the prices please.", "bot: " + prices), transcript.subList(2, 4));
    }

    /**
     * The model calls a function tool: call-service sends {@code tool-calls} to the organisation's server URL (the
     * assistant's {@code serverUrl}; the tool names no server), whose result goes back to the model for the call the
     * model made, and the model's answer with it is heard.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aFunctionToolIsAnsweredByTheOrganisationsServer(RealtimeCase provider) throws Exception {
        String question = "Where is my order forty two?";
        String server = "realtime-tools-" + provider.name().hashCode();
        calls.outside().stubFor(post(urlEqualTo("/hooks/" + server)).atPriority(1)
                .withRequestBody(matchingJsonPath("$.message.type",
                        com.github.tomakehurst.wiremock.client.WireMock.equalTo("tool-calls")))
                .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody("{\"results\":[{"
                        + "\"toolCallId\":\"{{jsonPath request.body '$.message.toolCallList[0].id'}}\","
                        + "\"result\":\"Order 42 ships tomorrow.\"}]}").withTransformers("response-template")));
        RealtimeFake fake = provider.fake().apply(calls);
        fake.hears(question);
        fake.answers(heard -> heard.toolOutput() != null
                ? Answer.say(heard.toolOutput().contains("ships tomorrow") ? "It ships tomorrow." : "I could not find it.")
                : Answer.call("lookup_order", "{\"order\":42}"));
        String assistantId = calls.assistant("{\"name\":\"realtime tools\",\"model\":{" + provider.model() + ","
                + "\"messages\":[{\"role\":\"system\",\"content\":\"You answer the phone for a shop.\"}],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"lookup_order\",\"parameters\":"
                + "{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"number\"}}}}}]},"
                + "\"voice\":" + provider.voice() + ",\"responseDelaySeconds\":0,"
                + "\"firstMessageMode\":\"assistant-waits-for-user\",\"serverUrl\":\"" + calls.server(server) + "\"}");
        Seen before = fake.seen();
        PhoneCall call = PhoneCall.to("realtime tools", "\"assistantId\":\"" + assistantId + "\"");
        try (FakeTwilioCaller caller = call.connect()) {
            assertTrue(caller.say(SpeechFixtures.mulaw8k(question)).voiceToVoiceMs(HeldCalls.CONVERSATION_STEP) > 0,
                    "the answer was heard");
            HeldCalls.eventually("the answer to be played out", HeldCalls.CONVERSATION_STEP,
                    () -> !caller.receivedMarks().isEmpty() && playedOut(caller)
                            && fake.seen().since(before).toolOutputs().size() == 1);
            caller.stop().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        JsonNode ended = call.ended(8);
        assertEquals(List.of("user: " + question, "bot: It ships tomorrow."), HeldCalls.messages(ended),
                ended.toString());
        List<JsonNode> toolCalls = calls.received(server, call.stream().callId()).stream()
                .filter(message -> "tool-calls".equals(message.path("type").asText())).toList();
        assertEquals(1, toolCalls.size(), toolCalls.toString());
        JsonNode asked = toolCalls.get(0).path("toolCallList").path(0);
        assertEquals("lookup_order", asked.path("function").path("name").asText(), asked.toString());
        assertEquals(42, asked.path("function").path("arguments").path("order").asInt(), asked.toString());
        assertEquals(List.of(new ToolOutput(asked.path("id").asText(), "Order 42 ships tomorrow.")),
                fake.seen().since(before).toolOutputs(), "the server's result, for the model's own call");
    }

    private static final String FRONT_DESK_GREETING = "Front desk, how can I help?";
    private static final String BILLING_GREETING = "Billing here.";
    private static final String QUESTION_FOR_BILLING = "I have a question about my bill.";
    private static final String FOLLOW_UP = "Why was I charged twice?";
    private static final String BILLING_ANSWER = "The second charge is only a hold.";

    /** A cascaded member (Deepgram, OpenAI's chat, ElevenLabs) of {@code name}, created through the API. */
    private static String cascaded(String name, String role, String greeting) {
        return calls.assistant("{\"name\":\"" + name + "\",\"firstMessage\":\"" + greeting + "\","
                + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"" + role + "\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\",\"inputMinCharacters\":10},"
                + "\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0}");
    }

    /** A realtime member of {@code name}, created through the API. */
    private static String realtime(RealtimeCase provider, String name, String role, String greeting) {
        return calls.assistant("{\"name\":\"" + name + "\",\"firstMessage\":\"" + greeting + "\",\"model\":{"
                + provider.model() + ",\"messages\":[{\"role\":\"system\",\"content\":\"" + role + "\"}]},"
                + "\"voice\":" + provider.voice() + ",\"responseDelaySeconds\":0}");
    }

    /**
     * A squad of {@code frontDesk} (who may hand the caller to Billing) and {@code billing}, answered on a number
     * whose server names it; the caller is greeted, asks for billing, is greeted by billing, asks again and hears
     * billing's answer. Returns the ended call.
     */
    private static JsonNode handedToBilling(String name, String frontDesk, String billing) throws Exception {
        String squadId = calls.squad("{\"name\":\"" + name + "\",\"members\":[{\"assistantId\":\"" + frontDesk + "\","
                + "\"assistantDestinations\":[{\"type\":\"assistant\",\"assistantName\":\"Billing\","
                + "\"message\":\"Let me pass you to billing.\",\"description\":\"invoices and charges\"}]},"
                + "{\"assistantId\":\"" + billing + "\"}]}");
        calls.outside().stubFor(post(urlEqualTo("/hooks/" + name)).atPriority(1)
                .withRequestBody(matchingJsonPath("$.message.type",
                        com.github.tomakehurst.wiremock.client.WireMock.equalTo("assistant-request")))
                .willReturn(okJson("{\"squadId\":\"" + squadId + "\"}")));
        PhoneCall call = PhoneCall.to(name, "\"serverUrl\":\"" + calls.server(name) + "\"");
        try (FakeTwilioCaller caller = call.connect()) {
            greeted(caller);
            int marksBefore = caller.receivedMarks().size();
            caller.say(SpeechFixtures.mulaw8k(QUESTION_FOR_BILLING));
            // The hand-off's message and billing's greeting each end with a mark.
            HeldCalls.eventually("billing's greeting to play", HeldCalls.CONVERSATION_STEP,
                    () -> caller.receivedMarks().size() >= marksBefore + 2 && playedOut(caller)
                            && HeldCalls.messages(HeldCalls.read(calls.as(HeldCalls.KEY).when()
                                    .get("/call/" + call.stream().callId()).then().statusCode(200).extract()
                                    .asString())).contains("bot: " + BILLING_GREETING));
            assertTrue(caller.say(SpeechFixtures.mulaw8k(FOLLOW_UP)).voiceToVoiceMs(HeldCalls.CONVERSATION_STEP) > 0,
                    "billing's answer was heard");
            HeldCalls.eventually("billing's answer to play", HeldCalls.CONVERSATION_STEP, () -> playedOut(caller));
            caller.stop().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
        }
        JsonNode ended = call.ended(30);
        assertEquals("customer-ended-call", ended.path("endedReason").asText(), ended.toString());
        assertEquals(squadId, ended.path("squadId").asText(), ended.toString());
        assertEquals(List.of("bot: " + FRONT_DESK_GREETING, "user: " + QUESTION_FOR_BILLING,
                "bot: Let me pass you to billing.", "bot: " + BILLING_GREETING, "user: " + FOLLOW_UP,
                "bot: " + BILLING_ANSWER), HeldCalls.messages(ended), ended.toString());
        return ended;
    }

    /** A realtime front desk hands the caller to a cascaded billing member, whose model is given the conversation. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aRealtimeMemberHandsTheCallerToACascadedMember(RealtimeCase provider) throws Exception {
        RealtimeFake fake = provider.fake().apply(calls);
        fake.hears(QUESTION_FOR_BILLING);
        fake.answers(heard -> Answer.call("transferCall", "{\"destination\":\"Billing\"}"));
        calls.deepgram().scriptFor(calls.deepgram().connections(), FOLLOW_UP);
        calls.openai().script(request -> FakeOpenAi.Reply.text(BILLING_ANSWER));
        String frontDesk = realtime(provider, "Front desk", "You are the front desk of a cafe.", FRONT_DESK_GREETING);
        String billing = cascaded("Billing", "You handle billing for a cafe.", BILLING_GREETING);

        handedToBilling("realtime-to-cascaded-" + provider.name().hashCode(), frontDesk, billing);

        JsonObject asked = calls.openai().lastRequest();
        assertEquals("gpt-4o", asked.getString("model"));
        String context = asked.getJsonArray("messages").encode();
        assertTrue(context.contains("You handle billing for a cafe."), context);
        assertTrue(context.contains(FRONT_DESK_GREETING) && context.contains(QUESTION_FOR_BILLING),
                "the cascaded model is given the realtime member's turns: " + context);
        assertTrue(context.contains(FOLLOW_UP), context);
    }

    /** A cascaded front desk hands the caller to a realtime billing member, whose session is given the conversation. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aCascadedMemberHandsTheCallerToARealtimeMember(RealtimeCase provider) throws Exception {
        RealtimeFake fake = provider.fake().apply(calls);
        fake.hears(FOLLOW_UP);
        fake.answers(heard -> Answer.say(BILLING_ANSWER));
        calls.deepgram().scriptFor(calls.deepgram().connections(), QUESTION_FOR_BILLING);
        calls.openai().script(request -> FakeOpenAi.Reply.toolCall("transferCall", "{\"destination\":\"Billing\"}"));
        String frontDesk = cascaded("Front desk", "You are the front desk of a cafe.", FRONT_DESK_GREETING);
        String billing = realtime(provider, "Billing", "You handle billing for a cafe.", BILLING_GREETING);
        Seen before = fake.seen();

        handedToBilling("cascaded-to-realtime-" + provider.name().hashCode(), frontDesk, billing);

        Seen seen = fake.seen().since(before);
        assertEquals("You handle billing for a cafe.", seen.instructions());
        assertTrue(seen.handedOver().contains(FRONT_DESK_GREETING) && seen.handedOver().contains(QUESTION_FOR_BILLING),
                "the realtime model is given the cascaded member's turns: " + seen.handedOver());
    }
}
