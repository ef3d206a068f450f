package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeRime;
import dev.voiceplane.runtime.fake.FakeTtsServer;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code voice.provider: rime-ai} through the runtime's media sockets with a local Rime (streaming HTTP): the
 * conversation is held in the call's own format (μ-law on the phone, PCM16 on the web) with the assistant's speaker,
 * model and speed and the organisation's key, and every way Rime can fail ends the call with {@code assistant-error}
 * and a transcript line naming it.
 */
@QuarkusTest
class RimeVoiceTest {

    private static final String VOICE = "{\"provider\":\"rime-ai\",\"voiceId\":\"cove\",\"speed\":1.25,"
            + "\"inputMinCharacters\":10}";

    @InjectWireMock
    WireMockServer wireMock;

    private VoiceCalls calls;

    @BeforeEach
    void setUp() {
        calls = new VoiceCalls(wireMock, "rime-ai", "rime-ai", FakeProviders.RIME_KEY, FakeProviders.rime());
    }

    @AfterEach
    void tearDown() {
        calls.close();
    }

    private static List<FakeRime.Request> sentSince(int before) {
        List<FakeRime.Request> all = FakeProviders.rime().requests();
        return all.subList(before, all.size());
    }

    @Test
    void aPhoneCallIsSpokenInMulawWithTheAssistantsSpeakerAndSpeed() throws Exception {
        int before = FakeProviders.rime().requests().size();
        calls.conversation(VOICE);
        List<FakeRime.Request> sent = sentSince(before);
        List<String> texts = sent.stream().map(FakeRime.Request::text).toList();
        assertTrue(texts.containsAll(List.of(VoiceCalls.GREETING, "Our menu has many dishes.",
                "Everything is under ten pounds.")), texts.toString());
        for (FakeRime.Request request : sent) {
            assertEquals("audio/PCMU", request.accept(), "μ-law 8 kHz end to end");
            assertEquals(8000, request.samplingRate());
            assertEquals("cove", request.speaker());
            assertEquals("mistv2", request.modelId(), "the default model when the assistant names none");
            assertEquals(0.8, request.body().getDouble("speedAlpha"), 1e-9,
                    "speed 1.25 as Mist's speedAlpha, a time scale (below 1 is faster)");
            assertFalse(request.body().containsKey("timeScaleFactor"));
        }
    }

    @Test
    void aWebCallIsSpokenInPcmWithTheAssistantsModel() throws Exception {
        int before = FakeProviders.rime().requests().size();
        calls.webCall("{\"provider\":\"rime-ai\",\"voiceId\":\"astra\",\"model\":\"arcana\",\"speed\":0.8,"
                + "\"language\":\"eng\"}");
        List<FakeRime.Request> sent = sentSince(before);
        assertFalse(sent.isEmpty());
        for (FakeRime.Request request : sent) {
            assertEquals("audio/L16", request.accept());
            assertEquals(16000, request.samplingRate());
            assertEquals("astra", request.speaker());
            assertEquals("arcana", request.modelId());
            assertEquals("eng", request.body().getString("lang"));
            assertEquals(1.25, request.body().getDouble("timeScaleFactor"), 1e-9,
                    "speed 0.8 as the time scale Rime recommends for models after Mist v2 (above 1 is slower)");
            assertFalse(request.body().containsKey("speedAlpha"));
        }
    }

    @Test
    void aKeyRimeRefusesEndsTheCall() throws Exception {
        calls.refusesAWrongKey(VOICE, "rime-ai answered 401 (auth)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "RATE_LIMITED | rime-ai answered 429 (rate-limited)",
            "SERVER_ERROR | rime-ai answered 500 (unavailable)",
            "HANG | rime-ai no audio within 4000 ms (timeout)",
            "NOT_AUDIO | rime-ai answered 200 with application/json, not audio (protocol)"})
    void aFailingRimeEndsTheCallKeepingTheTranscript(FakeTtsServer.Failure failure, String why) throws Exception {
        calls.failsMidCall(VOICE, failure, why);
    }
}
