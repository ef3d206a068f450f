package dev.voiceplane.runtime;

import dev.voiceplane.runtime.fake.FakeAzureSpeech;
import dev.voiceplane.runtime.fake.FakeAnthropic;
import dev.voiceplane.runtime.fake.FakeAssemblyAi;
import dev.voiceplane.runtime.fake.FakeCustomTranscriber;
import dev.voiceplane.runtime.fake.FakeCartesia;
import dev.voiceplane.runtime.fake.FakeCustomVoice;
import dev.voiceplane.runtime.fake.FakeSpeechmatics;
import dev.voiceplane.runtime.fake.FakeSoniox;
import dev.voiceplane.runtime.fake.FakeGladia;
import dev.voiceplane.runtime.fake.FakeDeepgram;
import dev.voiceplane.runtime.fake.FakeElevenLabs;
import dev.voiceplane.runtime.fake.FakeLmnt;
import dev.voiceplane.runtime.fake.FakeGemini;
import dev.voiceplane.runtime.fake.FakeGeminiLive;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeRime;
import dev.voiceplane.runtime.fake.FakeOpenAiRealtime;
import dev.voiceplane.runtime.fake.FakeOpenAiTranscription;
import dev.voiceplane.runtime.fake.ProviderFakes;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Local fakes of the providers, speaking their real protocols ({@link ProviderFakes}: every transcriber, model and
 * voice the runtime runs), started once per test run; the runtime's base URLs point at them. Tests script them through
 * the static accessors and use keys of their own per organisation, so that no test depends on another.
 */
public class FakeProviders implements QuarkusTestResourceLifecycleManager {

    public static final String DEEPGRAM_KEY = "dg-test-key";
    public static final String OPENAI_KEY = "sk-test-key";
    public static final String ELEVENLABS_KEY = "el-test-key";
    public static final String AZURE_KEY = "az-test-key";
    public static final String RIME_KEY = "rime-test-key";
    public static final String LMNT_KEY = "lmnt-test-key";
    public static final String ANTHROPIC_KEY = "sk-ant-test-key";
    public static final String GOOGLE_KEY = "AIza-test-key";
    public static final String AZURE_OPENAI_KEY = "aoai-test-key";
    public static final String ASSEMBLYAI_KEY = "aai-test-key";
    public static final String CARTESIA_KEY = "sk_car_test-key";
    public static final String CUSTOM_VOICE_SECRET = "cv-test-secret";
    public static final String SPEECHMATICS_KEY = "sm-test-key";
    public static final String SONIOX_KEY = "soniox-test-key";
    public static final String GLADIA_KEY = "gladia-test-key";

    private static ProviderFakes fakes;

    public static FakeDeepgram deepgram() {
        return fakes.deepgram();
    }

    public static FakeOpenAi openai() {
        return fakes.openai();
    }

    public static FakeElevenLabs elevenlabs() {
        return fakes.elevenlabs();
    }

    public static FakeAzureSpeech azure() {
        return fakes.azure();
    }

    public static FakeRime rime() {
        return fakes.rime();
    }

    public static FakeLmnt lmnt() {
        return fakes.lmnt();
    }

    public static FakeAnthropic anthropic() {
        return fakes.anthropic();
    }

    public static FakeGemini gemini() {
        return fakes.gemini();
    }

    /** The Gemini Live API, on the Gemini fake's server (the {@code google} key). */
    public static FakeGeminiLive geminiLive() {
        return fakes.gemini().live();
    }

    public static FakeAssemblyAi assemblyAi() {
        return fakes.assemblyAi();
    }

    /** OpenAI's Realtime speech-to-speech sessions, with the {@code openai} key. */
    public static FakeOpenAiRealtime openAiRealtime() {
        return fakes.openAiRealtime();
    }

    public static FakeOpenAiTranscription openAiTranscription() {
        return fakes.openAiTranscription();
    }

    /** A customer's transcription server (its URL goes in the assistant's {@code transcriber.server.url}). */
    public static FakeCustomTranscriber customTranscriber() {
        return fakes.customTranscriber();
    }

    public static FakeCartesia cartesia() {
        return fakes.cartesia();
    }

    public static FakeCustomVoice customVoice() {
        return fakes.customVoice();
    }

    public static FakeSpeechmatics speechmatics() {
        return fakes.speechmatics();
    }

    public static FakeSoniox soniox() {
        return fakes.soniox();
    }

    public static FakeGladia gladia() {
        return fakes.gladia();
    }

    @Override
    public synchronized Map<String, String> start() {
        if (fakes == null) {
            fakes = new ProviderFakes(Map.ofEntries(Map.entry("deepgram", DEEPGRAM_KEY),
                    Map.entry("openai", OPENAI_KEY), Map.entry("11labs", ELEVENLABS_KEY), Map.entry("azure", AZURE_KEY),
                    Map.entry("rime-ai", RIME_KEY), Map.entry("lmnt", LMNT_KEY), Map.entry("anthropic", ANTHROPIC_KEY),
                    Map.entry("google", GOOGLE_KEY), Map.entry("azure-openai", AZURE_OPENAI_KEY),
                    Map.entry("assembly-ai", ASSEMBLYAI_KEY), Map.entry("cartesia", CARTESIA_KEY),
                    Map.entry("speechmatics", SPEECHMATICS_KEY), Map.entry("soniox", SONIOX_KEY),
                    Map.entry("gladia", GLADIA_KEY)), CUSTOM_VOICE_SECRET);
        }
        return fakes.configuration();
    }

    @Override
    public void stop() {
        // The fakes live for the whole test run (several Quarkus applications may use them); the JVM ends them.
    }
}
