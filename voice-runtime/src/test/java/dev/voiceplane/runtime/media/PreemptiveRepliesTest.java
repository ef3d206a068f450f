package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Preemptive replies (docs/voice-runtime.md, "Preemptive replies", {@code VOICE_PREEMPTIVE_REPLIES=true}): when the
 * caller's speech stops, the model and the voice start on the interim words while the transcriber finalises; the
 * reply is heard only once the final words confirm it, and a guess the final words contradict is never heard, the
 * model being asked again. Whole phone calls with real speech (espeak-ng) in real-time frames through the runtime's
 * media endpoint; Deepgram, OpenAI and ElevenLabs as local fakes, Deepgram slow to finalise so that the guess is made
 * and answered before the final words come.
 */
@QuarkusTest
@TestProfile(PreemptiveRepliesTest.Preemptive.class)
class PreemptiveRepliesTest {

    /** The runtime with preemptive replies on. */
    public static class Preemptive implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("voice.runtime.preemptive-replies", "true");
        }
    }

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String RIGHT = "Yes, there is room for a van behind the building.";
    private static final String GUESSED = "Sorry, I only heard part of that.";

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls;

    @BeforeEach
    void setUp() throws Exception {
        calls = new StubbedCalls(wireMock);
        TranscriberScenarios.warmUp(wireMock, calls);
        // The final words come 700 ms after the end of speech (Deepgram's own endpointing, or the runtime's
        // Finalize): the guess is answered (and voiced) by then.
        FakeProviders.deepgram().finalDelayMs(700).finalizeDelayMs(700);
    }

    @AfterEach
    void tearDown() {
        FakeProviders.deepgram().finalDelayMs(0).finalizeDelayMs(0);
    }

    private static double preemptive(String result) {
        String prefix = "voice_runtime_preemptive_replies_total{result=\"" + result + "\"}";
        for (String line : RestAssured.get("/q/metrics").asString().split("\n")) {
            if (line.startsWith(prefix)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    /**
     * A first exchange ("Hello." and its answer), so that the question is asked on a call whose transcriber stream is
     * open and streaming: its interim words come while the caller speaks, as on any call after its first seconds.
     */
    private void warmUp(FakeTwilioCaller caller, UUID callId) {
        assertTrue(caller.say(SpeechFixtures.mulaw8k("Hello.")).voiceToVoiceMs(BOUND) > 0);
        Eventually.until("the answer to the greeting in the transcript", BOUND,
                () -> calls.transcript(callId).size() == 2);
    }

    private static List<String> userMessages(List<JsonObject> requests) {
        return requests.stream().map(FakeOpenAi::lastUserMessage).toList();
    }

    @Test
    void aGuessTheFinalWordsConfirmIsHeardAsTheAnswerAskedOnce() throws Exception {
        FakeProviders.deepgram().script("Hello.", "Do you have parking?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text(
                FakeOpenAi.lastUserMessage(request).startsWith("Hello") ? "Hi there." : RIGHT));
        double confirmed;
        int requestsBefore;
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, AssistantJson.onFakes()
                .with(",\"firstMessageMode\":\"assistant-waits-for-user\"").json());
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            warmUp(caller, callId);
            confirmed = preemptive("confirmed");
            requestsBefore = FakeProviders.openai().requestCount();
            FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k("Do you have parking?"));
            assertTrue(question.voiceToVoiceMs(BOUND) > 0, "the answer was heard");
            Eventually.until("the answer in the transcript", BOUND, () -> calls.transcript(callId).size() == 4);
        }
        assertEquals(List.of("user: Do you have parking?", "bot: " + RIGHT), calls.transcript(callId).subList(2, 4));
        List<JsonObject> requests = FakeProviders.openai().requests();
        assertEquals(List.of("Do you have parking?"),
                userMessages(requests.subList(requestsBefore, requests.size())),
                "the guess was the answer: the model was asked once for the question");
        assertEquals(confirmed + 1, preemptive("confirmed"), "the reply was begun before the final words came");
    }

    @Test
    void aGuessTheFinalWordsContradictIsNeverHeardAndTheModelIsAskedAgain() throws Exception {
        // The speech is four words; the transcript has many more, so the interim words (one more every 200 ms of
        // speech) stop short of the final ones when the caller stops: the guess answers words the caller did not end on.
        String finalWords = "Do you have parking for a large van with a trailer behind it please?";
        FakeProviders.deepgram().script("Hello.", finalWords);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text(
                FakeOpenAi.lastUserMessage(request).startsWith("Hello") ? "Hi there."
                        : FakeOpenAi.lastUserMessage(request).equals(finalWords) ? RIGHT : GUESSED));
        double dropped;
        int requestsBefore;
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, AssistantJson.onFakes()
                .with(",\"firstMessageMode\":\"assistant-waits-for-user\"").json());
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            warmUp(caller, callId);
            dropped = preemptive("dropped");
            requestsBefore = FakeProviders.openai().requestCount();
            FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k("Do you have parking?"));
            assertTrue(question.voiceToVoiceMs(BOUND) > 0, "an answer was heard");
            Eventually.until("the answer in the transcript", BOUND, () -> calls.transcript(callId).size() == 4);
            caller.stop().get(BOUND.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        List<String> transcript = calls.transcript(callId);
        assertEquals(List.of("user: " + finalWords, "bot: " + RIGHT), transcript.subList(2, 4),
                "only the right answer was heard");
        assertEquals(4, transcript.size(), transcript.toString());
        List<JsonObject> requests = FakeProviders.openai().requests();
        List<String> asked = userMessages(requests.subList(requestsBefore, requests.size()));
        assertEquals(2, asked.size(), "the guess, then the final words: " + asked);
        assertFalse(asked.get(0).equals(finalWords), "the first request was the guess: " + asked);
        assertEquals(finalWords, asked.get(1));
        assertEquals(dropped + 1, preemptive("dropped"));
        JsonNode usage = calls.ended(callId).path("usage");
        assertTrue(usage.path("ttsCharacters").asLong() >= "Hi there.".length() + GUESSED.length() + RIGHT.length(),
                "the voice spoke the guess too, and its characters are counted: " + usage);
    }
}
