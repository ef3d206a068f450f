package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.runtime.fake.FakeAnthropic;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeCustomVoice;
import dev.voiceplane.runtime.fake.FakeGemini;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTtsServer;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.ProviderFakes;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every provider the voice runtime runs holds a conversation through the gateway of the whole stack with its local
 * fake ({@link HeldCalls}: the runtime pointed at every fake by its base-URL variable, the organisation with a
 * credential for every provider). Each call names a different transcriber, model and voice at once, so that eleven
 * calls cover every transcriber path (Deepgram's Nova and Flux, AssemblyAI, OpenAI's Realtime and per-utterance
 * transcription, ElevenLabs' Scribe, Speechmatics, Soniox, Gladia, Cartesia's Ink, a custom transcriber), every model
 * protocol (OpenAI's chat completions as openai, xai, cerebras and deep-seek; Anthropic; Gemini; Azure OpenAI at the
 * credential's endpoint) and every voice (Azure, Cartesia, Deepgram's Aura, Rime, LMNT, a custom voice, ElevenLabs,
 * OpenAI).
 *
 * <p>Each call, its assistant created through the API, is what a caller and a client see: the greeting heard as
 * voiced audio, the caller's question transcribed and the long reply heard, the caller speaking over it (the runtime
 * clears the carrier's audio and the transcript keeps only what was played), the short answer heard, the call ended
 * by the answer's end-call phrase with its hang-up asked of the carrier, and the call's messages read back through
 * the API. Each fake saw the organisation's key and what the assistant named (transcriber model, model, voice): the
 * fakes that record requests record only those that carried their key (a wrong key is answered with the vendor's
 * refusal, which would end the call); the customer's own servers (custom transcriber, custom voice) saw the
 * assistant's {@code server.secret}. One failure stands for the rest (each vendor's failures are voice-runtime's
 * tests): a voice refusing the key ends the call with {@code assistant-error} and a line naming the provider.
 */
@ExtendWith(HeldCalls.Shared.class)
class ProvidersIT {

    private static final String GREETING = "Harbour Cafe, how can I help?";
    private static final String QUESTION = "Tell me about the menu.";
    private static final String LONG_REPLY = "Our menu has many dishes. There are soups and salads. There are sandwiches"
            + " and wraps. There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
    private static final String INTERRUPTION = "Just the prices please.";
    private static final String ANSWER = "Everything is under ten pounds. Goodbye!";
    private static final String CUSTOM_TRANSCRIBER_SECRET = "ct-secret-held-calls";

    private static HeldCalls calls;

    @BeforeAll
    static void stack(HeldCalls shared) {
        calls = shared;
    }

    /** The model's reply to the caller's last words. */
    private static String reply(String heard) {
        return heard != null && heard.startsWith("Tell") ? LONG_REPLY : ANSWER;
    }

    private static ProviderFakes fakes() {
        return calls.fakes();
    }

    private static String key(String provider) {
        return HeldCalls.PROVIDER_KEYS.get(provider);
    }

    /**
     * One stage of a call: the assistant's JSON object for it, how its fake is scripted before the call, and what its
     * fake must have been sent (checked after the call).
     */
    record Stage(String name, String json, Runnable script, Runnable sent) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A voice, with the texts its fake was asked to speak so far. */
    record Voice(String name, String json, Supplier<List<String>> spoken, Runnable sent) {
        @Override
        public String toString() {
            return name;
        }
    }

    // ---- transcribers: each fake hears the question, then the interruption

    private static Stage nova() {
        return new Stage("deepgram nova-3", "{\"provider\":\"deepgram\",\"model\":\"nova-3\",\"language\":\"en\"}",
                () -> fakes().deepgram().script(QUESTION, INTERRUPTION), () -> {
                    assertEquals("Token " + key("deepgram"), fakes().deepgram().lastAuthorization());
                    assertEquals("nova-3", fakes().deepgram().lastQuery("model"));
                });
    }

    private static Stage flux() {
        return new Stage("deepgram flux-general-en", "{\"provider\":\"deepgram\",\"model\":\"flux-general-en\"}",
                () -> fakes().deepgram().flux().script(QUESTION, INTERRUPTION), () -> {
                    assertEquals("Token " + key("deepgram"), fakes().deepgram().flux().lastAuthorization());
                    assertEquals("flux-general-en", fakes().deepgram().flux().lastQuery("model"));
                });
    }

    private static Stage assemblyAi() {
        return new Stage("assembly-ai", "{\"provider\":\"assembly-ai\",\"language\":\"en\","
                + "\"speechModel\":\"universal-streaming-english\"}",
                () -> fakes().assemblyAi().script(QUESTION, INTERRUPTION), () -> {
                    assertEquals(key("assembly-ai"), fakes().assemblyAi().lastAuthorization());
                    assertEquals("universal-streaming-english", fakes().assemblyAi().lastQuery("speech_model"));
                });
    }

    private static Stage openAiRealtime() {
        return new Stage("openai gpt-4o-transcribe (Realtime)", "{\"provider\":\"openai\","
                + "\"model\":\"gpt-4o-transcribe\",\"language\":\"en\"}",
                () -> fakes().openAiTranscription().script(QUESTION, INTERRUPTION), () -> {
                    assertEquals("Bearer " + key("openai"), fakes().openAiTranscription().lastAuthorization());
                    assertEquals("gpt-4o-transcribe", fakes().openAiTranscription().lastSession()
                            .getJsonObject("audio").getJsonObject("input").getJsonObject("transcription")
                            .getString("model"));
                });
    }

    private static Stage openAiPerUtterance() {
        return new Stage("openai whisper-1 (per utterance)", "{\"provider\":\"openai\",\"model\":\"whisper-1\","
                + "\"language\":\"en\"}",
                () -> fakes().openAiTranscription().script(QUESTION, INTERRUPTION), () -> {
                    var requests = fakes().openAiTranscription().requests();
                    var last = requests.get(requests.size() - 1);
                    assertEquals("Bearer " + key("openai"), last.authorization());
                    assertEquals("whisper-1", last.model());
                });
    }

    private static Stage scribe() {
        return new Stage("11labs scribe_v2_realtime", "{\"provider\":\"11labs\",\"model\":\"scribe_v2_realtime\","
                + "\"language\":\"en\"}",
                () -> fakes().elevenlabs().scribe().script(QUESTION, INTERRUPTION), () -> {
                    assertEquals(key("11labs"), fakes().elevenlabs().scribe().lastApiKey());
                    assertEquals("scribe_v2_realtime", fakes().elevenlabs().scribe().lastQuery("model_id"));
                });
    }

    private static Stage speechmatics() {
        return new Stage("speechmatics", "{\"provider\":\"speechmatics\",\"language\":\"en\","
                + "\"operatingPoint\":\"enhanced\"}",
                () -> fakes().speechmatics().script(QUESTION, INTERRUPTION), () -> {
                    assertEquals("Bearer " + key("speechmatics"), fakes().speechmatics().lastAuthorization());
                    List<JsonObject> starts = fakes().speechmatics().starts();
                    assertEquals("enhanced", starts.get(starts.size() - 1).getJsonObject("transcription_config")
                            .getString("operating_point"));
                });
    }

    private static Stage soniox() {
        return new Stage("soniox stt-rt-v4", "{\"provider\":\"soniox\",\"model\":\"stt-rt-v4\",\"language\":\"en\"}",
                () -> fakes().soniox().script(QUESTION, INTERRUPTION), () -> {
                    assertEquals("Bearer " + key("soniox"), fakes().soniox().lastAuthorization());
                    List<JsonObject> configs = fakes().soniox().configs();
                    assertEquals("stt-rt-v4", configs.get(configs.size() - 1).getString("model"));
                });
    }

    private static Stage gladia() {
        return new Stage("gladia solaria-1", "{\"provider\":\"gladia\",\"model\":\"solaria-1\",\"language\":\"en\"}",
                () -> fakes().gladia().script(QUESTION, INTERRUPTION), () -> {
                    assertEquals(key("gladia"), fakes().gladia().lastKey());
                    List<JsonObject> inits = fakes().gladia().inits();
                    assertEquals("solaria-1", inits.get(inits.size() - 1).getString("model"));
                });
    }

    private static Stage cartesiaInk() {
        return new Stage("cartesia ink-whisper", "{\"provider\":\"cartesia\",\"model\":\"ink-whisper\","
                + "\"language\":\"en\"}",
                () -> fakes().cartesia().stt().script(QUESTION, INTERRUPTION), () -> {
                    assertEquals(key("cartesia"), fakes().cartesia().stt().lastApiKey());
                    assertEquals("ink-whisper", fakes().cartesia().stt().lastQuery("model"));
                });
    }

    private static Stage customTranscriber() {
        return new Stage("custom-transcriber", "{\"provider\":\"custom-transcriber\",\"server\":{\"url\":\""
                + fakes().customTranscriber().url() + "\",\"secret\":\"" + CUSTOM_TRANSCRIBER_SECRET + "\"}}",
                () -> fakes().customTranscriber().secret(CUSTOM_TRANSCRIBER_SECRET).script(QUESTION, INTERRUPTION),
                () -> assertEquals(CUSTOM_TRANSCRIBER_SECRET,
                        fakes().customTranscriber().lastHeaders().get("x-vapi-secret")));
    }

    // ---- models: each answers the question with the long reply and the interruption with the answer

    private static String model(String provider, String model) {
        return "{\"provider\":\"" + provider + "\",\"model\":\"" + model + "\",\"messages\":[{\"role\":\"system\","
                + "\"content\":\"You answer the phone for a cafe.\"}]}";
    }

    /** An OpenAI-compatible provider whose chat fake is {@code chat} (with the provider's own key). */
    private static Stage compatible(String provider, String model, Supplier<FakeOpenAi> chat) {
        return new Stage(provider + " " + model, model(provider, model),
                () -> chat.get().script(request -> new FakeOpenAi.Text(reply(FakeOpenAi.lastUserMessage(request)))),
                () -> {
                    assertEquals("Bearer " + key(provider), chat.get().lastAuthorization());
                    assertEquals(model, chat.get().lastRequest().getString("model"));
                });
    }

    private static Stage openai() {
        return compatible("openai", "gpt-4o-mini", () -> calls.openai());
    }

    private static Stage xai() {
        return compatible("xai", "grok-3-mini", () -> calls.compatible("xai"));
    }

    private static Stage cerebras() {
        return compatible("cerebras", "llama-3.3-70b", () -> calls.compatible("cerebras"));
    }

    private static Stage deepSeek() {
        return compatible("deep-seek", "deepseek-chat", () -> calls.compatible("deep-seek"));
    }

    private static Stage anthropic() {
        return new Stage("anthropic claude-sonnet-4-5", model("anthropic", "claude-sonnet-4-5"),
                () -> fakes().anthropic().script(request -> new FakeAnthropic.Text(reply(
                        FakeAnthropic.lastUserText(request)))), () -> {
                    assertEquals(key("anthropic"), fakes().anthropic().lastApiKey());
                    assertEquals("claude-sonnet-4-5", fakes().anthropic().lastRequest().getString("model"));
                });
    }

    private static Stage google() {
        return new Stage("google gemini-2.5-flash", model("google", "gemini-2.5-flash"),
                () -> fakes().gemini().script(request -> new FakeGemini.Text(reply(FakeGemini.lastUserText(request)))),
                () -> {
                    assertEquals(key("google"), fakes().gemini().lastApiKey());
                    var exchanges = fakes().gemini().exchanges();
                    assertEquals("gemini-2.5-flash", exchanges.get(exchanges.size() - 1).model());
                });
    }

    private static Stage azureOpenAi() {
        return new Stage("azure-openai gpt-4o-mini", model("azure-openai", "gpt-4o-mini"),
                () -> calls.openai().script(request -> new FakeOpenAi.Text(reply(FakeOpenAi.lastUserMessage(request)))),
                () -> {
                    assertEquals(key("azure-openai"), calls.openai().lastApiKeyHeader());
                    assertEquals("gpt-4o-mini", calls.openai().lastDeployment(), "the assistant's model is the deployment");
                });
    }

    // ---- voices

    private static Voice azure() {
        return new Voice("azure en-US-JennyNeural", "{\"provider\":\"azure\",\"voiceId\":\"en-US-JennyNeural\"}",
                () -> fakes().azure().requests().stream().map(request -> request.text()).toList(),
                () -> assertEquals("en-US-JennyNeural", last(fakes().azure().requests()).voiceName()));
    }

    private static final String CARTESIA_VOICE = "a0e99841-438c-4a64-b679-ae501e7d6091";

    private static Voice cartesia() {
        return new Voice("cartesia sonic-3", "{\"provider\":\"cartesia\",\"voiceId\":\"" + CARTESIA_VOICE + "\","
                + "\"model\":\"sonic-3\"}",
                () -> fakes().cartesia().requests().stream().map(request -> request.getString("transcript")).toList(),
                () -> {
                    assertEquals(key("cartesia"), last(fakes().cartesia().upgrades()).apiKey());
                    JsonObject request = last(fakes().cartesia().requests());
                    assertEquals(CARTESIA_VOICE, request.getJsonObject("voice").getString("id"));
                    assertEquals("sonic-3", request.getString("model_id"));
                });
    }

    private static Voice aura() {
        return new Voice("deepgram aura-2-thalia-en", "{\"provider\":\"deepgram\",\"voiceId\":\"aura-2-thalia-en\"}",
                () -> fakes().deepgram().aura().messages("Speak").stream().map(speak -> speak.getString("text")).toList(),
                () -> {
                    assertEquals("Token " + key("deepgram"), fakes().deepgram().aura().lastAuthorization());
                    assertEquals("aura-2-thalia-en", fakes().deepgram().aura().lastQuery("model"));
                });
    }

    private static Voice rime() {
        return new Voice("rime-ai mistv2", "{\"provider\":\"rime-ai\",\"voiceId\":\"cove\",\"model\":\"mistv2\"}",
                () -> fakes().rime().requests().stream().map(request -> request.text()).toList(), () -> {
                    assertEquals("cove", last(fakes().rime().requests()).speaker());
                    assertEquals("mistv2", last(fakes().rime().requests()).modelId());
                });
    }

    private static Voice lmnt() {
        // The API takes no voice.model for lmnt (as the SDK's LMNT voice has none): LMNT's blizzard is sent.
        return new Voice("lmnt lily", "{\"provider\":\"lmnt\",\"voiceId\":\"lily\"}",
                () -> fakes().lmnt().requests().stream().map(request -> request.text()).toList(), () -> {
                    assertEquals("lily", last(fakes().lmnt().requests()).voice());
                    assertEquals("blizzard", last(fakes().lmnt().requests()).model());
                });
    }

    private static Voice customVoice() {
        return new Voice("custom-voice", "{\"provider\":\"custom-voice\",\"voiceId\":\"harbour-anna\",\"server\":"
                + "{\"url\":\"" + fakes().customVoice().url() + "\",\"secret\":\"" + HeldCalls.CUSTOM_VOICE_SECRET
                + "\"}}",
                () -> fakes().customVoice().requests().stream().map(FakeCustomVoice.Request::text).toList(), () -> {
                    FakeCustomVoice.Request request = last(fakes().customVoice().requests());
                    assertEquals(HeldCalls.CUSTOM_VOICE_SECRET, request.headers().get("X-VAPI-SECRET"));
                    assertEquals("harbour-anna", request.body().getJsonObject("message").getJsonObject("assistant")
                            .getJsonObject("voice").getString("voiceId"));
                });
    }

    private static Voice elevenlabs() {
        return new Voice("11labs eleven_flash_v2_5", "{\"provider\":\"11labs\",\"voiceId\":\"rachel\","
                + "\"model\":\"eleven_flash_v2_5\"}",
                () -> fakes().elevenlabs().requests().stream().map(request -> request.text()).toList(), () -> {
                    assertEquals("rachel", last(fakes().elevenlabs().requests()).voiceId());
                    assertEquals("eleven_flash_v2_5", last(fakes().elevenlabs().requests()).modelId());
                });
    }

    private static Voice openAiVoice() {
        return new Voice("openai tts-1", "{\"provider\":\"openai\",\"voiceId\":\"alloy\",\"model\":\"tts-1\"}",
                () -> calls.openAiTts().requests().stream().map(request -> request.input()).toList(), () -> {
                    assertEquals("alloy", last(calls.openAiTts().requests()).voice());
                    assertEquals("tts-1", last(calls.openAiTts().requests()).model());
                });
    }

    private static <T> T last(List<T> list) {
        assertTrue(!list.isEmpty(), "the fake was sent something");
        return list.get(list.size() - 1);
    }

    /** Eleven calls, each a different transcriber path, and together every model protocol and every voice. */
    static Stream<Arguments> calls() {
        return Stream.of(
                Arguments.of(nova(), openai(), azure()),
                Arguments.of(flux(), anthropic(), cartesia()),
                Arguments.of(assemblyAi(), google(), aura()),
                Arguments.of(openAiRealtime(), xai(), rime()),
                Arguments.of(openAiPerUtterance(), cerebras(), lmnt()),
                Arguments.of(scribe(), deepSeek(), customVoice()),
                Arguments.of(speechmatics(), azureOpenAi(), elevenlabs()),
                Arguments.of(soniox(), anthropic(), openAiVoice()),
                Arguments.of(gladia(), google(), cartesia()),
                Arguments.of(cartesiaInk(), xai(), aura()),
                Arguments.of(customTranscriber(), azureOpenAi(), lmnt()));
    }

    @ParameterizedTest(name = "{0} | {1} | {2}")
    @MethodSource("calls")
    void aCallIsHeldThroughTheGatewayWithEveryStagesFake(Stage transcriber, Stage model, Voice voice)
            throws Exception {
        transcriber.script().run();
        model.script().run();
        int spokenBefore = voice.spoken().get().size();
        String assistantId = calls.assistant("{\"name\":\"providers\",\"firstMessage\":\"" + GREETING + "\","
                + "\"transcriber\":" + transcriber.json() + ",\"model\":" + model.json() + ",\"voice\":" + voice.json()
                + ",\"endCallPhrases\":[\"goodbye\"],\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0}");
        HeldCalls.TwilioNumber number = calls.twilioNumber("providers", "\"assistantId\":\"" + assistantId + "\"");
        String sid = HeldCalls.callSid();
        calls.expectCallUpdates(number, sid);
        HeldCalls.Stream stream = calls.answer(number, sid);
        calls.carrierStatus(number, sid, "in-progress", 1, null);
        try (FakeTwilioCaller caller = calls.connect(stream)) {
            HeldCalls.eventually("the greeting to be heard and played out", HeldCalls.CONVERSATION_STEP,
                    () -> caller.firstAudioNanos() > 0 && !caller.playing() && !caller.receivedMarks().isEmpty()
                            && caller.echoedMarks().size() == caller.receivedMarks().size());
            byte[] greeting = caller.playedAudio();
            assertTrue(SpeechFixtures.rms(SpeechFixtures.decodeMulaw(greeting, 0, greeting.length)) > 300,
                    "the greeting was voiced audio (" + greeting.length + " bytes)");
            int greetingBytes = greeting.length;

            assertTrue(caller.say(SpeechFixtures.mulaw8k(QUESTION)).voiceToVoiceMs(HeldCalls.CONVERSATION_STEP) > 0,
                    "the reply was heard after the question");
            HeldCalls.eventually("a second of the reply to play", HeldCalls.CONVERSATION_STEP,
                    () -> caller.playedAudio().length > greetingBytes + 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k(INTERRUPTION));
            assertTrue(interruption.bargeInMs(HeldCalls.CONVERSATION_STEP) > 0,
                    "the runtime cleared the reply's audio at the carrier");
            assertTrue(interruption.voiceToVoiceMs(HeldCalls.CONVERSATION_STEP) > 0,
                    "the answer was heard after the interruption");

            FakeCaller.Closed closed = caller.closed().get(HeldCalls.CONVERSATION_STEP.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime hung up after the end-call phrase: " + closed);
            assertEquals((short) 1000, closed.code(), "the close code passed through the gateway: " + closed);
        }
        HeldCalls.eventually("the carrier to be asked to hang up", HeldCalls.CONVERSATION_STEP,
                () -> calls.callUpdates(number, sid).stream().anyMatch(update -> update.contains("Status=completed")));
        calls.carrierStatus(number, sid, "completed", 2, 20);

        JsonNode call = calls.endedCall(stream.callId());
        assertEquals("assistant-said-end-call-phrase", call.path("endedReason").asText(), call.toString());
        List<String> messages = HeldCalls.messages(call);
        assertEquals(5, messages.size(), messages.toString());
        assertEquals("bot: " + GREETING, messages.get(0));
        assertEquals("user: " + QUESTION, messages.get(1));
        assertTrue(messages.get(2).startsWith("bot: Our menu") && messages.get(2).length() < ("bot: " + LONG_REPLY)
                .length(), "the interrupted reply keeps what was played: " + messages.get(2));
        assertEquals("user: " + INTERRUPTION, messages.get(3));
        assertEquals("bot: " + ANSWER, messages.get(4));

        List<String> spoken = new ArrayList<>(voice.spoken().get());
        spoken = spoken.subList(spokenBefore, spoken.size());
        assertTrue(String.join(" ", spoken).contains(GREETING), "the voice spoke the greeting: " + spoken);
        transcriber.sent().run();
        model.sent().run();
        voice.sent().run();
    }

    @Test
    void aVoiceThatRefusesTheKeyEndsTheCallNamingIt() throws Exception {
        fakes().rime().failure(FakeTtsServer.Failure.UNAUTHORIZED);
        try {
            String assistantId = calls.assistant("{\"name\":\"providers-refused\",\"firstMessage\":\"" + GREETING + "\","
                    + "\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                    + "\"model\":" + model("openai", "gpt-4o-mini") + ","
                    + "\"voice\":{\"provider\":\"rime-ai\",\"voiceId\":\"cove\"}}");
            HeldCalls.TwilioNumber number = calls.twilioNumber("providers-refused",
                    "\"assistantId\":\"" + assistantId + "\"");
            String sid = HeldCalls.callSid();
            calls.expectCallUpdates(number, sid);
            HeldCalls.Stream stream = calls.answer(number, sid);
            calls.carrierStatus(number, sid, "in-progress", 1, null);
            try (FakeTwilioCaller caller = calls.connect(stream)) {
                FakeCaller.Closed closed = caller.closed().get(HeldCalls.CONVERSATION_STEP.toSeconds(),
                        TimeUnit.SECONDS);
                assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
                assertEquals((short) 1000, closed.code(), "the carrier's stream was closed normally: " + closed);
                assertEquals(-1, caller.firstAudioNanos(), "nothing was heard");
            }
            calls.carrierStatus(number, sid, "completed", 2, 1);
            // A call without a conversation has no analysis to wait for (HeldCalls.endedCall waits for one).
            JsonNode[] ended = new JsonNode[1];
            HeldCalls.eventually("the call to be ended", () -> {
                ended[0] = HeldCalls.read(calls.as(HeldCalls.KEY).when().get("/call/" + stream.callId())
                        .then().statusCode(200).extract().asString());
                return ended[0].path("status").asText().equals("ended");
            });
            JsonNode call = ended[0];
            assertEquals("assistant-error", call.path("endedReason").asText(), call.toString());
            List<String> messages = new ArrayList<>();
            call.path("messages").forEach(message -> messages.add(message.path("role").asText() + ": "
                    + message.path("message").asText()));
            assertEquals(List.of("system: The call ended: the voice (rime-ai) failed."), messages.stream()
                    .filter(message -> !message.startsWith("system: You answer")).toList(), call.toString());
        } finally {
            fakes().rime().failure(FakeTtsServer.Failure.NONE);
        }
    }
}
