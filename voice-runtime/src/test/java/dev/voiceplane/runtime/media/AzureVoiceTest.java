package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeAzureSpeech;
import dev.voiceplane.runtime.fake.FakeTtsServer;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code voice.provider: azure} through the runtime's media sockets with a local Azure Speech (REST, SSML): the
 * conversation is held in the call's own format (μ-law on the phone, PCM16 on the web) with the assistant's voice,
 * language and speed and the organisation's key, and every way Azure can fail ends the call with
 * {@code assistant-error} and a transcript line naming it. The tests point {@code VOICE_AZURE_SPEECH_URL} at the fake
 * ({@code voice.runtime.url.azure}), so the credential's region is not used; {@code AzureVoicesTest} covers that choice.
 */
@QuarkusTest
class AzureVoiceTest {

    private static final String VOICE = "{\"provider\":\"azure\",\"voiceId\":\"en-US-JennyNeural\",\"speed\":1.2,"
            + "\"inputMinCharacters\":10}";

    @InjectWireMock
    WireMockServer wireMock;

    private VoiceCalls calls;

    @BeforeEach
    void setUp() {
        calls = new VoiceCalls(wireMock, "azure", "azure", FakeProviders.AZURE_KEY, FakeProviders.azure());
    }

    @AfterEach
    void tearDown() {
        calls.close();
    }

    private static List<FakeAzureSpeech.Request> sentSince(int before) {
        List<FakeAzureSpeech.Request> all = FakeProviders.azure().requests();
        return all.subList(before, all.size());
    }

    @Test
    void aPhoneCallIsSpokenInMulawWithTheAssistantsVoiceAndSpeed() throws Exception {
        int before = FakeProviders.azure().requests().size();
        calls.conversation(VOICE);
        List<FakeAzureSpeech.Request> sent = sentSince(before);
        List<String> texts = sent.stream().map(FakeAzureSpeech.Request::text).toList();
        assertTrue(texts.contains(VoiceCalls.GREETING), "the greeting's '&' reached Azure as text: " + texts);
        assertTrue(texts.containsAll(List.of("Our menu has many dishes.", "Everything is under ten pounds.")), texts
                .toString());
        for (FakeAzureSpeech.Request request : sent) {
            assertEquals("raw-8khz-8bit-mono-mulaw", request.outputFormat(), "μ-law 8 kHz end to end");
            assertEquals("en-US-JennyNeural", request.voiceName());
            assertEquals("en-US", request.lang());
            assertEquals("1.2", request.rate(), "the assistant's speed is the prosody rate");
            assertFalse(request.userAgent().isBlank());
        }
    }

    @Test
    void aWebCallIsSpokenInPcmAndTheHostedPlatformsShortVoiceIdIsAzuresVoice() throws Exception {
        int before = FakeProviders.azure().requests().size();
        calls.webCall("{\"provider\":\"azure\",\"voiceId\":\"andrew\"}");
        List<FakeAzureSpeech.Request> sent = sentSince(before);
        assertFalse(sent.isEmpty());
        for (FakeAzureSpeech.Request request : sent) {
            assertEquals("raw-16khz-16bit-mono-pcm", request.outputFormat());
            assertEquals("en-US-AndrewMultilingualNeural", request.voiceName());
            assertNull(request.rate(), "no speed, no prosody");
        }
    }

    @Test
    void aKeyAzureRefusesEndsTheCall() throws Exception {
        calls.refusesAWrongKey(VOICE, "azure answered 401 (auth)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "RATE_LIMITED | azure answered 429 (rate-limited)",
            "SERVER_ERROR | azure answered 503 (unavailable)",
            "HANG | azure no audio within 4000 ms (timeout)",
            "NOT_AUDIO | azure answered 200 with application/json, not audio (protocol)"})
    void aFailingAzureEndsTheCallKeepingTheTranscript(FakeTtsServer.Failure failure, String why) throws Exception {
        calls.failsMidCall(VOICE, failure, why);
    }
}
