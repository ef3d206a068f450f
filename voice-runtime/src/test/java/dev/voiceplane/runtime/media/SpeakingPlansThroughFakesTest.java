package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.voiceplane.kit.auth.MediaTokens;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Today's SDK's {@code startSpeakingPlan} and {@code stopSpeakingPlan} in whole phone calls through the runtime's
 * media endpoint, with real speech (espeak-ng) from a fake carrier in real-time frames and the providers as local
 * fakes (docs/voice-runtime.md, "Turn-taking"): each setting changes what the caller hears. What is asserted is
 * whether the assistant was cut off (the carrier's clear), what the transcript and the model were given, and, for
 * the waits, that nothing was heard before them (lower bounds only, as the runtime holds the audio until then).
 */
@QuarkusTest
class SpeakingPlansThroughFakesTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String LONG_REPLY = "Our menu has many dishes. There are soups and salads. There are sandwiches"
            + " and wraps. There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
    private final MediaTokens tokens = new MediaTokens(TestKeys.MEDIA_TOKEN_KEY);
    private final ObjectMapper json = new ObjectMapper();

    @InjectWireMock
    WireMockServer wireMock;

    private static String assistant(String extra) {
        return "{\"transcriber\":{\"provider\":\"deepgram\",\"language\":\"en\"},"
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o-mini\","
                + "\"messages\":[{\"role\":\"system\",\"content\":\"You answer for the cafe.\"}]},"
                + "\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"rachel\",\"inputMinCharacters\":10},"
                + "\"firstMessageMode\":\"assistant-waits-for-user\","
                + "\"responseDelaySeconds\":0,\"llmRequestDelaySeconds\":0," + extra + "}";
    }

    // ---- stopSpeakingPlan ------------------------------------------------------------------------------------

    @Test
    void anAcknowledgementPhraseDoesNotInterruptAndOtherWordsDo() throws Exception {
        UUID callId = UUID.randomUUID();
        try (FakeTwilioCaller caller = callWithLongReply(callId,
                "\"stopSpeakingPlan\":{\"acknowledgementPhrases\":[\"yeah\",\"mm-hmm\"]}", "Yeah.", "Wait, what about the prices?")) {
            FakeCaller.Utterance backchannel = caller.say(SpeechFixtures.mulaw8k("Yeah."));
            playsOnAfter(caller, backchannel);
            assertTrue(caller.clears().isEmpty(), "the acknowledgement did not stop the assistant");

            FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k("Wait, what about the prices?"));
            assertTrue(question.bargeInMs(BOUND) > 0, "words that are not an acknowledgement stop it");
            question.voiceToVoiceMs(BOUND);
            Eventually.until("the answer in the transcript", BOUND, () -> transcript(callId).size() == 4);
        }
        List<String> transcript = transcript(callId);
        assertTrue(transcript.get(1).startsWith("bot: Our menu"), transcript.toString());
        assertEquals(List.of("user: Wait, what about the prices?", "bot: Everything is under ten pounds."),
                transcript.subList(2, 4));
        assertFalse(transcript.stream().anyMatch(line -> line.startsWith("user: Yeah.")), transcript.toString());
    }

    @Test
    void numWordsTwoNeedsTwoWords() throws Exception {
        UUID callId = UUID.randomUUID();
        try (FakeTwilioCaller caller = callWithLongReply(callId, "\"stopSpeakingPlan\":{\"numWords\":2}",
                "Okay.", "Hold on please.")) {
            FakeCaller.Utterance oneWord = caller.say(SpeechFixtures.mulaw8k("Okay."));
            playsOnAfter(caller, oneWord);
            assertTrue(caller.clears().isEmpty(), "one word did not stop the assistant");

            FakeCaller.Utterance threeWords = caller.say(SpeechFixtures.mulaw8k("Hold on please."));
            assertTrue(threeWords.bargeInMs(BOUND) > 0, "two words stop it");
        }
    }

    @Test
    void anInterruptionPhraseInterruptsBelowTheWordCount() throws Exception {
        UUID callId = UUID.randomUUID();
        try (FakeTwilioCaller caller = callWithLongReply(callId,
                "\"numWordsToInterruptAssistant\":10,"
                        + "\"stopSpeakingPlan\":{\"numWords\":10,\"interruptionPhrases\":[\"stop\"]}", "Stop.")) {
            FakeCaller.Utterance stop = caller.say(SpeechFixtures.mulaw8k("Stop."));
            // Neither word count (the plan's, which replaces the era's) is reached: the phrase is what interrupts.
            assertTrue(stop.bargeInMs(BOUND) > 0, "one listed word stops the assistant although numWords is 10");
        }
    }

    @Test
    void afterAnInterruptionTheNextReplyWaitsBackoffSeconds() throws Exception {
        UUID callId = UUID.randomUUID();
        try (FakeTwilioCaller caller = callWithLongReply(callId, "\"stopSpeakingPlan\":{\"backoffSeconds\":3}",
                "Just the prices please.")) {
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k("Just the prices please."));
            assertTrue(interruption.bargeInMs(BOUND) > 0);
            long heard = interruption.firstReply().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            long started = interruption.started().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            // The interruption came after the caller started; the reply is held 3 s after the interruption.
            assertTrue(heard - started >= TimeUnit.SECONDS.toNanos(3),
                    "the answer was heard " + (heard - started) / 1_000_000 + " ms after the interruption started");
            Eventually.until("the answer in the transcript", BOUND, () -> transcript(callId).size() == 4);
        }
        assertEquals(List.of("user: Just the prices please.", "bot: Everything is under ten pounds."),
                transcript(callId).subList(2, 4));
    }

    // ---- startSpeakingPlan -----------------------------------------------------------------------------------

    @Test
    void waitSecondsHoldsTheReplyInsteadOfResponseDelaySeconds() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = call(callId, assistant("\"startSpeakingPlan\":{\"waitSeconds\":1.5}"));
        FakeProviders.deepgram().script("Do you have parking?");
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("Yes, behind the building."));
        try (FakeTwilioCaller caller = phoneCall(callId, org)) {
            double voiceToVoice = caller.say(SpeechFixtures.mulaw8k("Do you have parking?")).voiceToVoiceMs(BOUND);
            // responseDelaySeconds is 0: the 1.5 s are the plan's.
            assertTrue(voiceToVoice >= 1500, "the reply was heard " + voiceToVoice + " ms after the caller stopped");
        }
    }

    @ParameterizedTest(name = "{0} | {1}")
    @CsvSource(delimiter = '|', value = {
            "I would like to book| a table for two.| {\"onNoPunctuationSeconds\":3,\"onPunctuationSeconds\":0}",
            "Table 12.| By the window.| {\"onNumberSeconds\":3,\"onPunctuationSeconds\":0}"})
    void aPauseAfterWordsTheRulesHoldDoesNotEndTheTurn(String first, String second, String rules) throws Exception {
        UUID callId = UUID.randomUUID();
        String org = call(callId, assistant("\"startSpeakingPlan\":{\"transcriptionEndpointingPlan\":" + rules + "}"));
        FakeProviders.deepgram().script(first, second.strip());
        List<String> asked = new CopyOnWriteArrayList<>();
        FakeProviders.openai().script(request -> {
            asked.add(FakeOpenAi.lastUserMessage(request));
            return new FakeOpenAi.Text("Certainly, it is booked.");
        });
        ByteArrayOutputStream speech = new ByteArrayOutputStream();
        speech.write(SpeechFixtures.mulaw8k(first));
        speech.write(SpeechFixtures.mulawSilence(700));
        speech.write(SpeechFixtures.mulaw8k(second.strip()));
        try (FakeTwilioCaller caller = phoneCall(callId, org)) {
            caller.say(speech.toByteArray()).voiceToVoiceMs(BOUND);
            Eventually.until("the reply in the transcript", BOUND, () -> transcript(callId).size() == 2);
        }
        String whole = first + " " + second.strip();
        assertEquals(List.of("user: " + whole, "bot: Certainly, it is booked."), transcript(callId));
        assertEquals(List.of(whole), asked, "the model was never asked with the words before the pause");
    }

    // ---- the call --------------------------------------------------------------------------------------------

    /**
     * A call whose first caller turn gets a long reply (about ten seconds of speech), returned once a second of it has
     * played; the transcriber hears "Tell me about the menu." and then {@code later}.
     */
    private FakeTwilioCaller callWithLongReply(UUID callId, String plan, String... later) throws Exception {
        String org = call(callId, assistant(plan));
        List<String> script = new ArrayList<>(List.of("Tell me about the menu."));
        script.addAll(List.of(later));
        FakeProviders.deepgram().script(script.toArray(String[]::new));
        FakeProviders.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Tell")
                ? new FakeOpenAi.Text(LONG_REPLY) : new FakeOpenAi.Text("Everything is under ten pounds."));
        FakeTwilioCaller caller = phoneCall(callId, org);
        caller.say(SpeechFixtures.mulaw8k("Tell me about the menu.")).voiceToVoiceMs(BOUND);
        Eventually.until("a second of the reply to play", BOUND, () -> caller.playedAudio().length > 8000);
        return caller;
    }

    /** Waits until the utterance has ended and two more seconds of the assistant have played after it. */
    private static void playsOnAfter(FakeTwilioCaller caller, FakeCaller.Utterance utterance) throws Exception {
        utterance.ended().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        int played = caller.playedAudio().length;
        Eventually.until("two more seconds of the reply to play", BOUND,
                () -> caller.playedAudio().length > played + 16000 || !caller.clears().isEmpty());
    }

    private String call(UUID callId, String assistant) {
        String org = "org-" + callId;
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .withHeader("X-Voice-Org-Id", equalTo(org))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"inboundPhoneCall\"},\"assistant\":"
                                + assistant + "}")));
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/events"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"recorded\":true,\"applied\":true,\"status\":\"in-progress\"}")));
        for (String[] credential : new String[][] {{"deepgram", FakeProviders.DEEPGRAM_KEY},
                {"openai", FakeProviders.OPENAI_KEY}, {"11labs", FakeProviders.ELEVENLABS_KEY}}) {
            String id = credential[0] + "-" + callId;
            wireMock.stubFor(get(urlPathEqualTo("/internal/credential")).withQueryParam("provider", equalTo(credential[0]))
                    .withHeader("X-Voice-Org-Id", equalTo(org))
                    .willReturn(aResponse().withHeader("Content-Type", "application/json")
                            .withBody("[{\"id\":\"" + id + "\",\"provider\":\"" + credential[0] + "\"}]")));
            wireMock.stubFor(get(urlEqualTo("/internal/credential/" + id + "/secret"))
                    .willReturn(aResponse().withHeader("Content-Type", "application/json")
                            .withBody("{\"id\":\"" + id + "\",\"provider\":\"" + credential[0] + "\",\"apiKey\":\""
                                    + credential[1] + "\"}")));
        }
        return org;
    }

    private List<String> transcript(UUID callId) {
        List<JsonNode> events = new ArrayList<>();
        for (LoggedRequest request : wireMock.findAll(postRequestedFor(
                urlEqualTo("/internal/call/" + callId + "/runtime/events")))) {
            try {
                events.add(json.readTree(request.getBodyAsString()));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        events.sort(java.util.Comparator.comparingLong(event -> event.path("sequence").asLong()));
        return events.stream().filter(event -> "message".equals(event.path("type").asText()))
                .map(event -> event.path("message").path("role").asText() + ": "
                        + event.path("message").path("message").asText())
                .toList();
    }

    private FakeTwilioCaller phoneCall(UUID callId, String org) {
        return FakeTwilioCaller.connect("ws://localhost:" + RestAssured.port + "/media/stream", Map.of(
                "callId", callId.toString(), "orgId", org,
                "token", tokens.issue(org, callId, Instant.now().plusSeconds(60))));
    }
}
