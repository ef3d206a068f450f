package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.fake.FakeCaller;
import dev.voiceplane.runtime.fake.FakeOpenAiRealtime;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Voicemail (docs/voice-runtime.md, "Voicemail") through the carrier media endpoint with the fake providers:
 * call-service (WireMock, and this test posting to the runtime's internal route as it would) says a machine
 * answered; the machine's greeting (espeak-ng) and its beep (a 1 kHz tone made here) come down the line; the
 * assistant's voicemailMessage is heard after the beep, nothing else is said, and the call ends {@code voicemail}.
 */
@QuarkusTest
class VoicemailTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String MESSAGE = "Please call the Harbour Cafe back.";

    @InjectWireMock
    WireMockServer wireMock;

    private StubbedCalls calls() {
        return new StubbedCalls(wireMock);
    }

    private String voicemailCall(StubbedCalls calls, UUID callId, String answeredBy) {
        return voicemailCall(calls, callId, answeredBy, StubbedCalls.assistant(
                ",\"firstMessageMode\":\"assistant-waits-for-user\",\"voicemailMessage\":\"" + MESSAGE + "\""));
    }

    private String voicemailCall(StubbedCalls calls, UUID callId, String answeredBy, String assistant) {
        String org = calls.call(callId, assistant);
        wireMock.stubFor(post(urlEqualTo("/internal/call/" + callId + "/runtime/address"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody(answeredBy == null ? "{\"answeredBy\":null}"
                                : "{\"answeredBy\":\"" + answeredBy + "\"}")));
        return org;
    }

    /** A beep as an answering machine plays it: 1 kHz, 500 ms, −10 dBFS, μ-law. */
    private static byte[] beep() {
        short[] samples = new short[4000];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = (short) Math.round(10362 * Math.sin(2 * Math.PI * 1000 * i / 8000.0));
        }
        return AudioFormat.ULAW_8K.fromPcm(samples, 8000);
    }

    @Test
    void theMessageIsLeftAfterTheBeepAndTheCallEndsVoicemail() throws Exception {
        StubbedCalls calls = calls();
        UUID callId = UUID.randomUUID();
        String org = voicemailCall(calls, callId, null);
        FakeProviders.deepgram().script("Hi, you have reached Ada. Please leave a message after the tone.");
        leavesTheMessageAfterTheBeep(calls, callId, org);
    }

    /**
     * The same on a realtime model (docs/voice-runtime.md, "Realtime models"): the model's server VAD hears the
     * greeting, and the replies it begins itself to the machine's words are cancelled, unheard; the runtime's tone
     * detector hears the beep in the caller's audio and asks the model to say the message as written.
     */
    @Test
    void aRealtimeModelLeavesTheMessageAfterTheBeepToo() throws Exception {
        StubbedCalls calls = calls();
        UUID callId = UUID.randomUUID();
        String org = voicemailCall(calls, callId, null, "{\"model\":{\"provider\":\"openai\",\"model\":"
                + "\"gpt-realtime\"},\"responseDelaySeconds\":0,\"firstMessageMode\":\"assistant-waits-for-user\","
                + "\"voicemailMessage\":\"" + MESSAGE + "\"}");
        FakeOpenAiRealtime openai = FakeProviders.openAiRealtime().failure(FakeOpenAiRealtime.Failure.NONE)
                .transcripts("Hi, you have reached Ada. Please leave a message after the tone.")
                .script(context -> new FakeOpenAiRealtime.Say("Hello Ada, this is the Harbour Cafe."));
        int receivedBefore = openai.received().size();
        leavesTheMessageAfterTheBeep(calls, callId, org);
        List<String> asked = openai.received().subList(receivedBefore, openai.received().size()).stream()
                .filter(event -> "response.create".equals(event.getString("type")))
                .map(event -> event.getJsonObject("response").getString("instructions", "")).toList();
        // (A reply asked for while the model began one of its own is asked again once that one is done.)
        assertTrue(!asked.isEmpty() && asked.stream().allMatch(text -> text.endsWith("nothing else: " + MESSAGE)),
                "the model was asked for the message as written, and for nothing else: " + asked);
    }

    /**
     * call-service says a machine answered; the greeting and the beep come down the line; the message is heard
     * after the beep, the call ends {@code voicemail}, and its transcript holds the message only.
     */
    private void leavesTheMessageAfterTheBeep(StubbedCalls calls, UUID callId, String org) throws Exception {
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            Eventually.until("the runtime to give call-service its address", BOUND, () -> !wireMock.findAll(
                    postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/address"))).isEmpty());
            wireMock.verify(postRequestedFor(urlEqualTo("/internal/call/" + callId + "/runtime/address"))
                    .withRequestBody(matchingJsonPath("$.url", WireMock.matching("http://.+:[0-9]+"))));
            internal(org).body("{\"answeredBy\":\"machine_start\"}")
                    .when().post("http://localhost:" + RestAssured.port + "/internal/runtime/call/" + callId
                            + "/voicemail").then().statusCode(200).body("accepted", equalTo(true));

            ByteArrayOutputStream greeting = new ByteArrayOutputStream();
            greeting.write(SpeechFixtures.mulaw8k("Hi, you have reached Ada. Please leave a message after the tone."));
            greeting.write(SpeechFixtures.mulawSilence(300));
            greeting.write(beep());
            FakeCaller.Utterance machine = caller.say(greeting.toByteArray());
            assertTrue(machine.voiceToVoiceMs(BOUND) > 0, "the message was heard after the beep, not over the greeting");

            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime(), "the runtime ended the call once the message played");
        }
        assertEquals("voicemail", calls.ended(callId).path("endedReason").asText());
        assertEquals(List.of("bot: " + MESSAGE), calls.transcript(callId), "the message, and no turn with the machine");
    }

    @Test
    void aMachineHeardBeforeTheAddressWasGivenIsInItsAnswer() throws Exception {
        StubbedCalls calls = calls();
        UUID callId = UUID.randomUUID();
        String org = voicemailCall(calls, callId, "machine_end_beep");
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            FakeCaller.Closed closed = caller.closed().get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertTrue(closed.byRuntime());
            assertTrue(caller.playedAudio().length > 8000, "the message was played (the carrier heard the beep)");
        }
        assertEquals("voicemail", calls.ended(callId).path("endedReason").asText());
        assertEquals(List.of("bot: " + MESSAGE), calls.transcript(callId));
    }

    @Test
    void theInternalRouteIsForTheHoldingReplicaAndItsOrganisation() {
        String url = "http://localhost:" + RestAssured.port + "/internal/runtime/call/" + UUID.randomUUID() + "/voicemail";
        internal("org-x").body("{\"answeredBy\":\"machine_start\"}").when().post(url).then().statusCode(404)
                .body("statusCode", equalTo(404));
        RestAssured.given().contentType("application/json").body("{\"answeredBy\":\"machine_start\"}")
                .when().post(url).then().statusCode(401);
        internal("org-x").body("{}").when().post(url).then().statusCode(400).body("statusCode", equalTo(400));
        internal("org-x").body("[1]").when().post(url).then().statusCode(400);
    }
}
