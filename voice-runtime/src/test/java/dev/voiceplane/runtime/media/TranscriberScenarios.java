package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.restassured.RestAssured;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The conversations every transcriber is proven with, through the runtime's real media sockets, the model (OpenAI)
 * and the voice (ElevenLabs) being the usual fakes: a phone call from greeting to hang-up, a web call (PCM16), a
 * barge-in, and a call whose transcriber fails.
 */
final class TranscriberScenarios {

    static final Duration BOUND = Duration.ofSeconds(30);
    static final String QUESTION = "What time do you open tomorrow?";
    static final String ANSWER = "We open at nine.";

    private static boolean warm;

    private final StubbedCalls calls;
    private final StubbedCalls.LogCapture logs;

    TranscriberScenarios(StubbedCalls calls, StubbedCalls.LogCapture logs) {
        this.calls = calls;
        this.logs = logs;
    }

    /**
     * The first call to call-service in a fresh JVM on a loaded machine can outlast the peer timeout (as
     * VonageMediaTest found), and a transcriber's class may run first: one refused attach warms the clients.
     */
    static void warmUp(WireMockServer wireMock, StubbedCalls calls) throws Exception {
        if (warm) {
            return;
        }
        warm = true;
        UUID callId = UUID.randomUUID();
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/attach"))
                .willReturn(aResponse().withStatus(409).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":\"warm-up\",\"error\":\"Conflict\",\"statusCode\":409}")));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, "org-" + callId)) {
            caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /** An assistant with {@code transcriber} (a JSON object), OpenAI's model and ElevenLabs' voice. */
    static String assistant(String transcriber, String extra) {
        return AssistantJson.onFakes().transcriber(transcriber).with(extra).json();
    }

    /** The keys of the model's and the voice's fakes, and {@code more}. */
    static Map<String, String> keys(String... more) {
        Map<String, String> keys = new HashMap<>(Map.of("openai", FakeProviders.OPENAI_KEY, "11labs",
                FakeProviders.ELEVENLABS_KEY));
        for (int i = 0; i < more.length; i += 2) {
            keys.put(more[i], more[i + 1]);
        }
        return keys;
    }

    /** What a call left: its id, its transcript, its {@code ended} event, and the model's last user message. */
    record Call(UUID callId, List<String> transcript, JsonNode ended, String heardByModel) {
    }

    /**
     * A phone call (μ-law): the greeting is heard, the caller asks {@link #QUESTION}, the reply {@link #ANSWER} is
     * heard, the caller hangs up.
     */
    Call phoneCall(String transcriber, Map<String, String> keys) throws Exception {
        FakeProviders.openai().script(request -> new FakeOpenAi.Text(ANSWER));
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(transcriber, ",\"firstMessage\":\"Harbour Cafe, hello.\""), keys);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                    && !caller.playing() && !caller.receivedMarks().isEmpty()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());
            int heardBefore = caller.receivedAudio().length;
            FakeCaller.Utterance question = caller.say(SpeechFixtures.mulaw8k(QUESTION));
            assertTrue(question.voiceToVoiceMs(BOUND) > 0, "the reply was heard after the question");
            Eventually.until("the reply in the transcript", BOUND,
                    () -> calls.transcript(callId).contains("bot: " + ANSWER));
            assertTrue(caller.receivedAudio().length > heardBefore, "the reply's audio reached the caller");
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        return new Call(callId, calls.transcript(callId), calls.ended(callId),
                FakeOpenAi.lastUserMessage(FakeProviders.openai().lastRequest()));
    }

    /** A web call (PCM16 16 kHz): greeted, asks {@link #QUESTION}, hears {@link #ANSWER}, hangs up. */
    Call webCall(String transcriber, Map<String, String> keys) throws Exception {
        FakeProviders.openai().script(request -> new FakeOpenAi.Text(ANSWER));
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(transcriber, ",\"firstMessage\":\"Hi, web caller.\""), keys);
        String url = "ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token=" + calls.token(callId, org);
        try (FakeWebCaller caller = FakeWebCaller.connect(url)) {
            Eventually.until("the greeting to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                    && !caller.playing() && !caller.receivedMarks().isEmpty()
                    && caller.echoedMarks().size() == caller.receivedMarks().size());
            assertTrue(caller.say(SpeechFixtures.pcm16k(QUESTION)).voiceToVoiceMs(BOUND) > 0);
            Eventually.until("the reply in the transcript", BOUND,
                    () -> calls.transcript(callId).contains("bot: " + ANSWER));
            caller.hangUp().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        return new Call(callId, calls.transcript(callId), calls.ended(callId),
                FakeOpenAi.lastUserMessage(FakeProviders.openai().lastRequest()));
    }

    /**
     * The caller talks over a long reply (the transcriber's script must be "Tell me about the menu.", "Just the prices
     * please."): the reply stops, the transcript and the model keep what was heard, the interruption is answered.
     */
    void bargeIn(String transcriber, Map<String, String> keys) throws Exception {
        FakeProviders.openai().script(request -> FakeOpenAi.lastUserMessage(request).startsWith("Tell")
                ? new FakeOpenAi.Text("Our menu has many dishes. There are soups and salads. There are sandwiches and"
                        + " wraps. There are grilled fish plates. There are cakes and pastries. There is coffee and tea.")
                : new FakeOpenAi.Text("Everything is under ten pounds."));
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant(transcriber, ",\"firstMessageMode\":\"assistant-waits-for-user\""),
                keys);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k("Tell me about the menu.")).voiceToVoiceMs(BOUND);
            Eventually.until("a second of the reply to play", BOUND, () -> caller.playedAudio().length > 8000);
            FakeCaller.Utterance interruption = caller.say(SpeechFixtures.mulaw8k("Just the prices please."));
            assertTrue(interruption.bargeInMs(BOUND) > 0, "the runtime cleared the caller's audio");
            interruption.voiceToVoiceMs(BOUND);
            Eventually.until("the answer to the interruption", BOUND, () -> calls.transcript(callId).size() == 4);
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals("user: Tell me about the menu.", transcript.get(0), transcript.toString());
        assertTrue(transcript.get(1).startsWith("bot: Our menu"), transcript.toString());
        assertTrue(transcript.get(1).length() < "bot: Our menu has many dishes. There are soups and salads. There are"
                .length() + 60, "the interrupted reply keeps what was played: " + transcript.get(1));
        assertEquals("user: Just the prices please.", transcript.get(2), transcript.toString());
        assertEquals("bot: Everything is under ten pounds.", transcript.get(3));
        var messages = FakeProviders.openai().lastRequest().getJsonArray("messages");
        assertEquals(transcript.get(1).substring(5), messages.getJsonObject(messages.size() - 2).getString("content"),
                "the model hears only what the caller heard");
    }

    /**
     * A phone call whose transcriber fails: greeted (when {@code greeted}), the caller asks, and the call ends with
     * {@code assistant-error}, the transcript's last line naming the transcriber, a log line saying {@code why} with
     * the failure's kind, {@code ended} the last event with none lost, the carrier's stream closed normally after it,
     * nothing uncaught, and the live-calls gauge back at 0.
     */
    void failure(String transcriber, Map<String, String> keys, String provider, boolean greeted, String why,
            String kind) throws Exception {
        FakeProviders.openai().script(request -> new FakeOpenAi.Text(ANSWER));
        UUID callId = UUID.randomUUID();
        String extra = greeted ? ",\"firstMessage\":\"Hello.\"" : ",\"firstMessageMode\":\"assistant-waits-for-user\"";
        String org = calls.call(callId, assistant(transcriber, extra), keys);
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            if (greeted) {
                Eventually.until("the greeting to be heard and played out", BOUND, () -> caller.firstAudioNanos() > 0
                        && !caller.playing() && !caller.receivedMarks().isEmpty()
                        && caller.echoedMarks().size() == caller.receivedMarks().size());
            }
            if (!caller.closed().isDone()) {
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
            assertEquals(i, events.get(i).path("sequence").asLong(), "one event per sequence, none lost: " + events);
        }
        List<String> transcript = calls.transcript(callId);
        if (greeted) {
            assertEquals("bot: Hello.", transcript.get(0), transcript.toString());
        }
        assertEquals("system: The call ended: the transcriber (" + provider + ") failed.",
                transcript.get(transcript.size() - 1), transcript.toString());
        assertTrue(logs.logged("the transcriber (provider " + provider + ") failed"), "a log line names it");
        assertTrue(logs.logged(provider + " " + why), "the log says why: " + why);
        assertTrue(logs.logged(why + " (" + kind + ")"), "the log gives the kind: " + kind);
        Eventually.until("the live-calls gauge to return to 0", BOUND, () -> StubbedCalls.liveCalls() == 0);
        assertEquals(List.of(), logs.uncaught(), "nothing uncaught was logged");
    }
}
