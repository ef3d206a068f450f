package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeOpenAiRealtime;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.FakeVonageCaller;
import dev.voiceplane.runtime.fake.FakeWebCaller;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The caller's keypad as an input of the conversation ({@code keypadInputPlan}, docs/voice-runtime.md "Keypad"), in
 * whole calls through the media endpoint: Twilio's and Vonage's DTMF events and a web client's {@code dtmf} message
 * become one caller turn, "User's Keypad Entry: " and the keys, at the delimiter or after {@code timeoutSeconds};
 * the model is asked with it and the transcript keeps it. Keys pressed while the assistant speaks do not stop it.
 * Without the plan a key is dropped and counted. A realtime model gets the entry as a user text item.
 */
@QuarkusTest
class KeypadThroughFakesTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final String DROPPED = "voice_runtime_caller_dtmf_dropped_total";
    private static final String LONG_REPLY = "Our menu has many dishes. There are soups and salads. There are sandwiches"
            + " and wraps. There are grilled fish plates. There are cakes and pastries. There is coffee and tea.";

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls;
    /** The last user message of every request the model was sent in this test. */
    private final List<String> asked = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        calls = new StubbedCalls(wireMock);
        TranscriberScenarios.warmUp(wireMock, calls);
        FakeProviders.openai().script(request -> {
            String user = FakeOpenAi.lastUserMessage(request);
            asked.add(user);
            return new FakeOpenAi.Text(user.startsWith("Tell") ? LONG_REPLY : "Thank you, that is noted.");
        });
    }

    private static String assistant(String plan) {
        return AssistantJson.onFakes().with(",\"firstMessage\":\"Hello.\",\"keypadInputPlan\":" + plan).json();
    }

    @Test
    void twilioKeysEndedByTheDelimiterAreOneTurnTheModelIsAsked() throws Exception {
        UUID callId = UUID.randomUUID();
        // timeoutSeconds 0: only the delimiter ends the entry.
        String org = calls.call(callId, assistant("{\"enabled\":true,\"timeoutSeconds\":0,\"delimiters\":\"#\"}"));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting", BOUND, () -> calls.transcript(callId).size() == 1);
            for (char key : "1234#".toCharArray()) {
                caller.dtmf(key);
            }
            Eventually.until("the reply to the keys", BOUND, () -> calls.transcript(callId).size() == 3);
        }
        assertEquals(List.of("bot: Hello.", "user: User's Keypad Entry: 1234", "bot: Thank you, that is noted."),
                calls.transcript(callId));
        assertEquals(List.of("User's Keypad Entry: 1234"), asked, "one turn, without the delimiter");
    }

    @Test
    void withoutADelimiterTheEntryEndsTimeoutSecondsAfterTheLastKey() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("{\"enabled\":true,\"timeoutSeconds\":0.5,\"delimiters\":\"#\"}"));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting", BOUND, () -> calls.transcript(callId).size() == 1);
            caller.dtmf('4');
            caller.dtmf('2');
            caller.dtmf('*'); // not this plan's delimiter: a key like the others
            Eventually.until("the reply to the keys", BOUND, () -> calls.transcript(callId).size() == 3);
        }
        assertEquals("user: User's Keypad Entry: 42*", calls.transcript(callId).get(1));
        assertEquals(List.of("User's Keypad Entry: 42*"), asked);
    }

    @Test
    void vonageKeysAreTakenTheSameWay() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("{\"enabled\":true,\"timeoutSeconds\":10,\"delimiters\":\"*\"}"));
        try (FakeVonageCaller caller = FakeVonageCaller.connect(StubbedCalls.streamUrl(), Map.of(
                "callId", callId.toString(), "orgId", org, "token", calls.token(callId, org)))) {
            Eventually.until("the greeting", BOUND, () -> calls.transcript(callId).size() == 1);
            for (char key : "907*".toCharArray()) {
                caller.dtmf(key);
            }
            Eventually.until("the reply to the keys", BOUND, () -> calls.transcript(callId).size() == 3);
        }
        assertEquals(List.of("bot: Hello.", "user: User's Keypad Entry: 907", "bot: Thank you, that is noted."),
                calls.transcript(callId));
        assertEquals(List.of("User's Keypad Entry: 907"), asked);
    }

    @Test
    void aWebClientsDtmfMessagesAreKeysAndTheirTurnIsATranscriptMessage() throws Exception {
        UUID callId = UUID.randomUUID();
        // No delimiter and no timeout: each key is an entry of its own.
        String org = calls.call(callId, AssistantJson.onFakes().with(",\"firstMessage\":\"Hello.\","
                + "\"clientMessages\":[\"transcript\"],"
                + "\"keypadInputPlan\":{\"enabled\":true,\"timeoutSeconds\":0,\"delimiters\":\"\"}").json());
        String url = "ws://localhost:" + RestAssured.port + "/media/web/" + callId + "?token=" + calls.token(callId, org);
        try (FakeWebCaller caller = FakeWebCaller.connect(url)) {
            Eventually.until("the greeting", BOUND, () -> calls.transcript(callId).size() == 1);
            caller.send(new JsonObject().put("type", "dtmf").put("digit", "9"));
            Eventually.until("the caller's line as a transcript message", BOUND, () -> caller.messages().stream()
                    .anyMatch(message -> "transcript".equals(message.getString("type"))
                            && "user".equals(message.getString("role"))
                            && "User's Keypad Entry: 9".equals(message.getString("transcript"))));
            Eventually.until("the reply", BOUND, () -> calls.transcript(callId).size() == 3);
        }
        assertEquals(List.of("User's Keypad Entry: 9"), asked);
    }

    @Test
    void keysPressedWhileTheAssistantSpeaksDoNotStopItAndAreAnsweredAfter() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, AssistantJson.onFakes().with(",\"firstMessage\":\"" + LONG_REPLY + "\","
                + "\"keypadInputPlan\":{\"enabled\":true,\"timeoutSeconds\":0,\"delimiters\":\"#\"}").json());
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("a second of the greeting to play", BOUND, () -> caller.playedAudio().length > 8000);
            caller.dtmf('5');
            caller.dtmf('#');
            Eventually.until("the reply to the keys", BOUND, () -> calls.transcript(callId).size() == 3);
            assertTrue(caller.clears().isEmpty(), "the keys did not cut the assistant off");
        }
        List<String> transcript = calls.transcript(callId);
        assertEquals(List.of("bot: " + LONG_REPLY, "user: User's Keypad Entry: 5", "bot: Thank you, that is noted."),
                transcript, "the greeting was heard whole, then the entry was answered");
    }

    @Test
    void withoutThePlanKeysAreDroppedAndCounted() throws Exception {
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant("{\"enabled\":false,\"timeoutSeconds\":0,\"delimiters\":\"#\"}"));
        double before = MediaHandshakeTest.counter(DROPPED, "transport=\"twilio\"");
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting", BOUND, () -> calls.transcript(callId).size() == 1);
            for (char key : "12#".toCharArray()) {
                caller.dtmf(key);
            }
            Eventually.until("three keys counted as dropped", BOUND,
                    () -> MediaHandshakeTest.counter(DROPPED, "transport=\"twilio\"") >= before + 3);
            caller.stop().get(BOUND.toSeconds(), TimeUnit.SECONDS);
        }
        Eventually.until("the end", BOUND, () -> calls.ended(callId) != null);
        assertEquals(List.of("bot: Hello."), calls.transcript(callId));
        assertTrue(asked.isEmpty(), "the model was never asked: " + asked);
    }

    @Test
    void aRealtimeModelGetsTheEntryAsAUserTextItemAndAnswers() throws Exception {
        FakeOpenAiRealtime realtime = FakeProviders.openAiRealtime().failure(FakeOpenAiRealtime.Failure.NONE)
                .script(context -> new FakeOpenAiRealtime.Say("Your code is noted."));
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-realtime\","
                + "\"messages\":[{\"role\":\"system\",\"content\":\"You take codes.\"}]},\"responseDelaySeconds\":0,"
                + "\"firstMessage\":\"Hello.\",\"keypadInputPlan\":{\"enabled\":true,\"timeoutSeconds\":0}}",
                Map.of("openai", FakeProviders.OPENAI_KEY));
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the greeting", BOUND, () -> calls.transcript(callId).size() == 1);
            for (char key : "12#".toCharArray()) { // # is the delimiter the plan leaves out
                caller.dtmf(key);
            }
            Eventually.until("the reply to the keys", BOUND,
                    () -> calls.transcript(callId).contains("bot: Your code is noted."));
        }
        assertEquals(List.of("bot: Hello.", "user: User's Keypad Entry: 12", "bot: Your code is noted."),
                calls.transcript(callId));
        assertTrue(realtime.itemTexts().contains("user: User's Keypad Entry: 12"), realtime.itemTexts().toString());
    }
}
