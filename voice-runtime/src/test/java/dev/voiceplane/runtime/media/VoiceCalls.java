package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTtsServer;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.restassured.RestAssured;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The calls every voice's conversation test makes through the runtime's media sockets, with the voice's local fake
 * and the Deepgram and OpenAI fakes for the other stages; what is checked is what the caller hears and what
 * call-service is told. Each test class asserts on top what its vendor was sent (key, voice, model, format).
 */
final class VoiceCalls implements AutoCloseable {

    static final Duration BOUND = Duration.ofSeconds(30);
    static final String GREETING = "Harbour Cafe & Grill, how can I help?";
    static final String QUESTION = "Tell me about the menu.";
    static final String LONG_REPLY = "Our menu has many dishes. There are soups and salads. There are sandwiches and"
            + " wraps. There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";
    static final String INTERRUPTION = "Just the prices please.";
    static final String ANSWER = "Everything is under ten pounds. Goodbye!";
    static final String OPENING = "When do you open?";

    private final WireMockServer wireMock;
    private final StubbedCalls calls;
    private final StubbedCalls.LogCapture logs = new StubbedCalls.LogCapture();
    private final String provider;
    private final String credentialProvider;
    private final String key;
    private final FakeTtsServer<?> fake;

    /**
     * @param provider the assistant's {@code voice.provider}, {@code credentialProvider} the credential holding
     *     {@code key} (the fake's), {@code fake} the voice's fake
     */
    VoiceCalls(WireMockServer wireMock, String provider, String credentialProvider, String key, FakeTtsServer<?> fake) {
        this.wireMock = wireMock;
        this.calls = new StubbedCalls(wireMock);
        this.provider = provider;
        this.credentialProvider = credentialProvider;
        this.key = key;
        this.fake = fake;
        reset();
    }

    /** Every fake as a test found it: no failure, nothing held. */
    private void reset() {
        fake.failure(FakeTtsServer.Failure.NONE).holdAfterMs(0, text -> false);
        FakeProviders.deepgram().failure(FakeDeepgram.Failure.NONE);
    }

    @Override
    public void close() {
        reset();
        logs.close();
    }

    /** An assistant speaking with {@code voice} (the voice object's JSON) and {@code extra} members. */
    static String assistant(String voice, String extra) {
        return AssistantJson.onFakes().voice(voice).with(extra).json();
    }

    private Map<String, String> credentials(String voiceKey) {
        return Map.of("deepgram", FakeProviders.DEEPGRAM_KEY, "openai", FakeProviders.OPENAI_KEY,
                credentialProvider, voiceKey);
    }

    /**
     * A phone call held from greeting to goodbye: the greeting is heard (the fake's μ-law audio, as it sent it), the
     * caller asks, talks over the long reply (the fake holds its later sentences open, so the barge-in must cancel
     * them), and the answer ends the call with its end-call phrase. Returns the call's transcript.
     */
    List<String> conversation(String voice) throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(voice, ",\"firstMessage\":\"" + GREETING + "\","
                + "\"endCallPhrases\":[\"goodbye\"]"), credentials(key));
        FakeProviders.deepgram().script(QUESTION, INTERRUPTION);
        FakeProviders.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Tell")
                ? new FakeOpenAi.Text(LONG_REPLY) : new FakeOpenAi.Text(ANSWER));
        fake.holdAfterMs(500, text -> text.startsWith("There "));
        int disconnects = fake.disconnects();
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            greeted(caller);
            heard(SpeechFixtures.decodeMulaw(caller.receivedAudio(), 0, caller.receivedAudio().length),
                    SpeechFixtures.decodeMulaw(SpeechFixtures.mulaw8k(GREETING), 0,
                            SpeechFixtures.mulaw8k(GREETING).length), 160);
            int greetingBytes = caller.playedAudio().length;

            caller.say(SpeechFixtures.mulaw8k(QUESTION)).voiceToVoiceMs(BOUND);
            Eventually.until("a second of the reply to play", BOUND,
                    () -> caller.playedAudio().length > greetingBytes + 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k(INTERRUPTION));
            assertTrue(interruption.bargeInMs(BOUND) > 0, "the runtime cleared the caller's audio");
            Eventually.until("the held speech to be cancelled at the " + provider + " fake", BOUND,
                    () -> fake.disconnects() > disconnects);
            interruption.voiceToVoiceMs(BOUND);

            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime hung up after the end-call phrase: " + closed);
            assertEquals((short) 1000, closed.code());
        }
        JsonNode ended = calls.ended(callId);
        assertNotNull(ended, "ended was reported before the stream was closed");
        assertEquals("assistant-said-end-call-phrase", ended.path("endedReason").asText(), ended.toString());
        assertNoneLost(callId);
        List<String> transcript = calls.transcript(callId);
        assertEquals(5, transcript.size(), transcript.toString());
        assertEquals("bot: " + GREETING, transcript.get(0));
        assertEquals("user: " + QUESTION, transcript.get(1));
        assertTrue(transcript.get(2).startsWith("bot: Our menu") && transcript.get(2).length() < LONG_REPLY.length(),
                "the interrupted reply keeps what was played: " + transcript.get(2));
        assertEquals("user: " + INTERRUPTION, transcript.get(3));
        assertEquals("bot: " + ANSWER, transcript.get(4));
        // Every sentence asked of the voice is counted, the ones cut short too (sentences, without the spaces between).
        assertEquals(GREETING.length() + LONG_REPLY.length() - 5 + ANSWER.length() - 1,
                ended.path("usage").path("ttsCharacters").asLong(), ended.toString());
        return transcript;
    }

    /** A web call: the greeting is heard as the fake's PCM16 16 kHz audio, then the caller hangs up. */
    void webCall(String voice) throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(voice, ",\"firstMessage\":\"" + GREETING + "\""), credentials(key));
        // The same call, as a web call (the latest stub answers).
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .withHeader("X-Voice-Org-Id", equalTo(org))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody("{\"call\":{\"id\":\"" + callId + "\",\"type\":\"webCall\"},\"assistant\":"
                                + assistant(voice, ",\"firstMessage\":\"" + GREETING + "\"")
                                + ",\"variableValues\":{}}")));
        String url = "ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token=" + calls.token(callId, org);
        try (FakeWebCaller caller = FakeWebCaller.connect(url)) {
            greeted(caller);
            heard(SpeechFixtures.decodePcm16le(caller.receivedAudio(), 0, caller.receivedAudio().length),
                    SpeechFixtures.decodePcm16le(SpeechFixtures.pcm16k(GREETING), 0,
                            SpeechFixtures.pcm16k(GREETING).length), 320);
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals("customer-ended-call", calls.ended(callId).path("endedReason").asText());
        assertEquals("bot: " + GREETING, calls.transcript(callId).get(0));
        assertNoneLost(callId);
    }

    /**
     * The greeting is heard, then the voice fails as {@code failure} on the answer to the caller's question: the call
     * ends with {@code assistant-error}, keeping what was said, and the log says {@code why}.
     */
    void failsMidCall(String voice, FakeTtsServer.Failure failure, String why) throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(voice, ",\"firstMessage\":\"Hello.\""), credentials(key));
        FakeProviders.deepgram().script(OPENING);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("We open at nine."));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            greeted(caller);
            fake.failure(failure);
            caller.say(SpeechFixtures.mulaw8k(OPENING));
            endedCleanly(callId, caller);
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals(List.of("bot: Hello.", "user: " + OPENING, "system: The call ended: the voice (" + provider
                + ") failed."), transcript);
        assertTrue(logs.logged(why), "the log says why (" + why + ")");
    }

    /** The organisation's key is not the one the vendor knows: its refusal ends the call before anything is played. */
    void refusesAWrongKey(String voice, String why) throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(voice, ",\"firstMessage\":\"Hello.\""), credentials("not-" + key));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            endedCleanly(callId, caller);
            assertEquals(0, caller.receivedAudio().length, "nothing was played");
        }
        assertTrue(logs.logged(why), "the log says why (" + why + ")");
    }

    private static void greeted(FakeCaller caller) {
        Eventually.until("the greeting to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                && !caller.playing() && !caller.receivedMarks().isEmpty()
                && caller.echoedMarks().size() == caller.receivedMarks().size());
    }

    /** The caller heard the fake's speech as it was made: every whole 20 ms frame of it, sample for sample. */
    private static void heard(short[] received, short[] spoken, int frameSamples) {
        int whole = spoken.length / frameSamples * frameSamples;
        assertTrue(received.length >= whole, "the whole greeting arrived: " + received.length + " of " + whole);
        assertArrayEquals(Arrays.copyOf(spoken, whole), Arrays.copyOf(received, whole),
                "the caller heard the voice's own audio");
    }

    /**
     * The carrier's stream was closed normally by the runtime after {@code ended} (assistant-error, the last event,
     * none lost); a log line names the voice's provider; the live-calls gauge is back at 0; nothing uncaught.
     */
    private void endedCleanly(UUID callId, FakeCaller caller) throws Exception {
        FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertTrue(closed.byRuntime(), "the runtime ended the call: " + closed);
        assertEquals((short) 1000, closed.code(), "the carrier's stream was closed normally: " + closed);
        JsonNode ended = calls.ended(callId);
        assertNotNull(ended, "ended was reported before the stream was closed");
        assertEquals("assistant-error", ended.path("endedReason").asText(), ended.toString());
        assertNoneLost(callId);
        List<String> transcript = calls.transcript(callId);
        assertEquals("system: The call ended: the voice (" + provider + ") failed.",
                transcript.get(transcript.size() - 1), transcript.toString());
        assertTrue(logs.logged("the voice (provider " + provider + ") failed"), "a log line names the provider");
        Eventually.until("the live-calls gauge to return to 0", BOUND, () -> StubbedCalls.liveCalls() == 0);
        assertEquals(List.of(), logs.uncaught(), "nothing uncaught was logged");
    }

    /** {@code ended} is the last event, and every sequence number up to it was reported once. */
    private void assertNoneLost(UUID callId) {
        List<JsonNode> events = calls.events(callId);
        assertEquals("ended", events.get(events.size() - 1).path("type").asText(), "ended is the last event");
        for (int i = 0; i < events.size(); i++) {
            assertEquals(i, events.get(i).path("sequence").asLong(), "one event per sequence, none lost: " + events);
        }
    }
}
