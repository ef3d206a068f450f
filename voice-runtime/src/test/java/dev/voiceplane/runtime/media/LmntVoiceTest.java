package dev.voiceplane.runtime.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeLmnt;
import dev.voiceplane.runtime.fake.FakeTtsServer;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code voice.provider: lmnt} through the runtime's media sockets with a local LMNT (the Speech API's binary
 * stream): the conversation is held with the assistant's voice and model and the organisation's key, LMNT's headerless
 * PCM at the call's rate (8 kHz, encoded to μ-law by the runtime, on the phone; 16 kHz on the web), and every way LMNT
 * can fail ends the call with {@code assistant-error} and a transcript line naming it.
 */
@QuarkusTest
class LmntVoiceTest {

    private static final String VOICE = "{\"provider\":\"lmnt\",\"voiceId\":\"leah\",\"speed\":1.1,"
            + "\"inputMinCharacters\":10}";

    @InjectWireMock
    WireMockServer wireMock;

    private VoiceCalls calls;

    @BeforeEach
    void setUp() {
        calls = new VoiceCalls(wireMock, "lmnt", "lmnt", FakeProviders.LMNT_KEY, FakeProviders.lmnt());
    }

    @AfterEach
    void tearDown() {
        calls.close();
    }

    private static List<FakeLmnt.Request> sentSince(int before) {
        List<FakeLmnt.Request> all = FakeProviders.lmnt().requests();
        return all.subList(before, all.size());
    }

    @Test
    void aPhoneCallIsSpokenFromPcmAt8kHzWithTheAssistantsVoice() throws Exception {
        int before = FakeProviders.lmnt().requests().size();
        calls.conversation(VOICE);
        List<FakeLmnt.Request> sent = sentSince(before);
        List<String> texts = sent.stream().map(FakeLmnt.Request::text).toList();
        assertTrue(texts.containsAll(List.of(VoiceCalls.GREETING, "Our menu has many dishes.",
                "Everything is under ten pounds.")), texts.toString());
        for (FakeLmnt.Request request : sent) {
            assertEquals("1.1", request.version(), "the API version the official SDK sends");
            assertEquals("leah", request.voice());
            assertEquals("blizzard", request.model(), "the default model when the assistant names none");
            assertEquals("pcm_s16le", request.format(), "headerless PCM (LMNT's ulaw starts with a WAV header)");
            assertEquals(8000, request.sampleRate(), "the phone call's rate: nothing to resample");
            assertFalse(request.body().containsKey("speed"), "LMNT's API has no speed");
        }
    }

    @Test
    void aWebCallIsSpokenInPcmAt16kHzWithTheAssistantsModelAndLanguage() throws Exception {
        int before = FakeProviders.lmnt().requests().size();
        calls.webCall("{\"provider\":\"lmnt\",\"voiceId\":\"ava\",\"model\":\"blizzard\",\"language\":\"en\"}");
        List<FakeLmnt.Request> sent = sentSince(before);
        assertFalse(sent.isEmpty());
        for (FakeLmnt.Request request : sent) {
            assertEquals("ava", request.voice());
            assertEquals("pcm_s16le", request.format());
            assertEquals(16000, request.sampleRate());
            assertEquals("en", request.body().getString("language"));
        }
    }

    @Test
    void aKeyLmntRefusesEndsTheCall() throws Exception {
        calls.refusesAWrongKey(VOICE, "lmnt answered 401 (auth)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "RATE_LIMITED | lmnt answered 429 (rate-limited)",
            "SERVER_ERROR | lmnt answered 500 (unavailable)",
            "HANG | lmnt no audio within 4000 ms (timeout)",
            "NOT_AUDIO | lmnt answered 200 with application/json, not audio (protocol)"})
    void aFailingLmntEndsTheCallKeepingTheTranscript(FakeTtsServer.Failure failure, String why) throws Exception {
        calls.failsMidCall(VOICE, failure, why);
    }
}
