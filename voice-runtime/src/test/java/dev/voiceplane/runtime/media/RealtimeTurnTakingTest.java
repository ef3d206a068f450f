package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAiRealtime;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
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
 * A realtime assistant with a speaking plan (docs/voice-runtime.md, "Realtime models", turn detection): the runtime's
 * voice detector, not the model's, ends the caller's turns, so the plan is run. The session is opened with
 * {@code turn_detection: null}; the runtime commits the caller's utterance and asks for the reply, holds it
 * {@code waitSeconds}, lets a voice shorter than {@code voiceSeconds} over the reply pass (the model forgets it:
 * {@code input_audio_buffer.clear}) and cuts the reply at what was heard when a longer one interrupts. Real speech
 * (espeak-ng) from a fake carrier in real-time frames, OpenAI Realtime as a local fake.
 */
@QuarkusTest
class RealtimeTurnTakingTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final Map<String, String> KEYS = Map.of("openai", FakeProviders.OPENAI_KEY);
    private static final String MENU = "Our menu has many dishes. There are soups and salads. There are sandwiches"
            + " and wraps. There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls;

    @BeforeEach
    void setUp() throws Exception {
        calls = new StubbedCalls(wireMock);
        TranscriberScenarios.warmUp(wireMock, calls);
        FakeProviders.openAiRealtime().failure(FakeOpenAiRealtime.Failure.NONE);
    }

    @AfterEach
    void tearDown() {
        FakeProviders.openAiRealtime().failure(FakeOpenAiRealtime.Failure.NONE);
    }

    private static String assistant(String plans) {
        return "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-realtime\","
                + "\"messages\":[{\"role\":\"system\",\"content\":\"You answer for the cafe.\"}]},"
                + "\"firstMessageMode\":\"assistant-waits-for-user\",\"responseDelaySeconds\":0," + plans + "}";
    }

    private static List<JsonObject> sentSince(FakeOpenAiRealtime openai, int from, String type) {
        List<JsonObject> received = openai.received();
        return received.subList(Math.min(from, received.size()), received.size()).stream()
                .filter(event -> type.equals(event.getString("type"))).toList();
    }

    @Test
    void aStartSpeakingPlanLeavesTheTurnToTheRuntimeWhichCommitsAndAsksAfterWaitSeconds() throws Exception {
        FakeOpenAiRealtime openai = FakeProviders.openAiRealtime().transcripts("Do you have parking?")
                .script(context -> new FakeOpenAiRealtime.Say("Yes, behind the building."));
        int before = openai.received().size();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("\"startSpeakingPlan\":{\"waitSeconds\":1.2}"), KEYS);
        double voiceToVoice;
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            voiceToVoice = caller.say(SpeechFixtures.mulaw8k("Do you have parking?")).voiceToVoiceMs(BOUND);
            Eventually.until("the reply in the transcript", BOUND, () -> calls.transcript(callId).size() == 2);
        }
        assertEquals(List.of("user: Do you have parking?", "bot: Yes, behind the building."), calls.transcript(callId));
        JsonObject input = openai.lastSession().getJsonObject("audio").getJsonObject("input");
        assertTrue(input.containsKey("turn_detection") && input.getValue("turn_detection") == null,
                "the model's voice detection is off: " + input);
        List<JsonObject> sent = openai.received().subList(before, openai.received().size());
        int commit = -1;
        for (int i = 0; i < sent.size(); i++) {
            if ("input_audio_buffer.commit".equals(sent.get(i).getString("type"))) {
                commit = i;
                break;
            }
        }
        assertTrue(commit >= 0, "the runtime committed the caller's utterance: " + sent);
        JsonObject create = sent.subList(commit, sent.size()).stream()
                .filter(event -> "response.create".equals(event.getString("type"))).findFirst().orElseThrow();
        assertTrue(create.getJsonObject("response").getJsonObject("metadata").getString("tag").startsWith("t"),
                "then asked for the reply, tagged as the runtime's: " + create);
        // A lower bound only: the runtime holds the reply's audio until waitSeconds after the end of speech.
        assertTrue(voiceToVoice >= 1200, "the reply was heard " + voiceToVoice + " ms after the caller stopped");
    }

    @Test
    void aVoiceShorterThanVoiceSecondsPassesAndIsForgottenALongerOneInterruptsAtWhatWasHeard() throws Exception {
        FakeOpenAiRealtime openai = FakeProviders.openAiRealtime()
                .transcripts("Tell me about the menu.", "Just the prices please, I am in a hurry.")
                .script(context -> new FakeOpenAiRealtime.Say(context.callerText().startsWith("Tell") ? MENU
                        : "Everything is under ten pounds."));
        int truncationsBefore = openai.truncations().size();
        int before = openai.received().size();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("\"stopSpeakingPlan\":{\"voiceSeconds\":1.0}"), KEYS);
        long heardMillis;
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k("Tell me about the menu.")).voiceToVoiceMs(BOUND);
            Eventually.until("a second of the reply to play", BOUND, () -> caller.playedAudio().length > 8000);

            FakeCaller.Utterance backchannel = caller.say(SpeechFixtures.mulaw8k("Yeah."));
            backchannel.ended().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            int played = caller.playedAudio().length;
            Eventually.until("two more seconds of the reply, or a clear", BOUND,
                    () -> caller.playedAudio().length > played + 16000 || !caller.clears().isEmpty());
            assertTrue(caller.clears().isEmpty(), "a voice shorter than voiceSeconds did not stop the assistant");
            Eventually.until("the model told to forget it", BOUND,
                    () -> !sentSince(openai, before, "input_audio_buffer.clear").isEmpty());

            FakeCaller.Utterance interruption = caller.say(
                    SpeechFixtures.mulaw8k("Just the prices please, I am in a hurry."));
            assertTrue(interruption.bargeInMs(BOUND) > 0, "a voice that lasted voiceSeconds stopped the assistant");
            Eventually.until("the truncation", BOUND, () -> openai.truncations().size() > truncationsBefore);
            heardMillis = caller.playedAudio().length / 8;
            interruption.voiceToVoiceMs(BOUND);
            Eventually.until("the answer to the interruption", BOUND, () -> calls.transcript(callId).size() == 4);
        }
        FakeOpenAiRealtime.Truncation truncation = openai.truncations().get(truncationsBefore);
        assertTrue(Math.abs(truncation.audioEndMs() - heardMillis) <= 20, "truncated at " + truncation.audioEndMs()
                + " ms, the caller heard " + heardMillis + " ms: within one 20 ms frame");
        List<String> transcript = calls.transcript(callId);
        assertEquals("user: Tell me about the menu.", transcript.get(0), transcript.toString());
        assertTrue(transcript.get(1).startsWith("bot: Our menu"), transcript.toString());
        assertTrue(transcript.get(1).length() < "bot: ".length() + MENU.length(),
                "the interrupted reply keeps what was played: " + transcript.get(1));
        assertEquals(List.of("user: Just the prices please, I am in a hurry.", "bot: Everything is under ten pounds."),
                transcript.subList(2, 4));
        assertFalse(transcript.stream().anyMatch(line -> line.startsWith("user: Yeah")), transcript.toString());
    }

    @Test
    void withoutASpeakingPlanTheModelsOwnVoiceDetectionEndsTheTurns() throws Exception {
        FakeOpenAiRealtime openai = FakeProviders.openAiRealtime().transcripts("Are you open late?")
                .script(context -> new FakeOpenAiRealtime.Say("Until ten."));
        int before = openai.received().size();
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("\"silenceTimeoutSeconds\":30"), KEYS);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k("Are you open late?")).voiceToVoiceMs(BOUND);
            Eventually.until("the reply in the transcript", BOUND, () -> calls.transcript(callId).size() == 2);
        }
        assertEquals("server_vad", openai.lastSession().getJsonObject("audio").getJsonObject("input")
                .getJsonObject("turn_detection").getString("type"));
        assertTrue(sentSince(openai, before, "input_audio_buffer.commit").isEmpty(), "OpenAI committed it itself");
    }
}
