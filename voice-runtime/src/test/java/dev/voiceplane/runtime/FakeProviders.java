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
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeRime;
import dev.voiceplane.runtime.fake.FakeOpenAiTranscription;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Local fakes of the providers, speaking their real protocols (Deepgram live, OpenAI streaming chat, ElevenLabs
 * streaming speech), started once per test run; the runtime's base URLs point at them. Tests script them through
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

    private static FakeDeepgram deepgram;
    private static FakeOpenAi openai;
    private static FakeElevenLabs elevenlabs;
    private static FakeAzureSpeech azure;
    private static FakeRime rime;
    private static FakeLmnt lmnt;
    private static FakeAnthropic anthropic;
    private static FakeGemini gemini;
    private static FakeAssemblyAi assemblyAi;
    private static FakeOpenAiTranscription openAiTranscription;
    private static FakeCustomTranscriber customTranscriber;
    private static FakeCartesia cartesia;
    private static FakeCustomVoice customVoice;
    private static FakeSpeechmatics speechmatics;
    private static FakeSoniox soniox;
    private static FakeGladia gladia;

    public static FakeDeepgram deepgram() {
        return deepgram;
    }

    public static FakeOpenAi openai() {
        return openai;
    }

    public static FakeElevenLabs elevenlabs() {
        return elevenlabs;
    }

    public static FakeAzureSpeech azure() {
        return azure;
    }

    public static FakeRime rime() {
        return rime;
    }

    public static FakeLmnt lmnt() {
        return lmnt;
    }

    public static FakeAnthropic anthropic() {
        return anthropic;
    }

    public static FakeGemini gemini() {
        return gemini;
    }

    public static FakeAssemblyAi assemblyAi() {
        return assemblyAi;
    }

    /** OpenAI's Realtime transcription and {@code /audio/transcriptions}, with the {@code openai} key. */
    public static FakeOpenAiTranscription openAiTranscription() {
        return openAiTranscription;
    }

    /** A customer's transcription server (its URL goes in the assistant's {@code transcriber.server.url}). */
    public static FakeCustomTranscriber customTranscriber() {
        return customTranscriber;
    }

    public static FakeCartesia cartesia() {
        return cartesia;
    }

    public static FakeCustomVoice customVoice() {
        return customVoice;
    }

    public static FakeSpeechmatics speechmatics() {
        return speechmatics;
    }

    public static FakeSoniox soniox() {
        return soniox;
    }

    public static FakeGladia gladia() {
        return gladia;
    }

    @Override
    public synchronized Map<String, String> start() {
        if (deepgram == null) {
            deepgram = new FakeDeepgram(DEEPGRAM_KEY);
            openai = new FakeOpenAi(OPENAI_KEY).azureKey(AZURE_OPENAI_KEY);
            elevenlabs = new FakeElevenLabs(ELEVENLABS_KEY);
            azure = new FakeAzureSpeech(AZURE_KEY);
            rime = new FakeRime(RIME_KEY);
            lmnt = new FakeLmnt(LMNT_KEY);
            anthropic = new FakeAnthropic(ANTHROPIC_KEY);
            gemini = new FakeGemini(GOOGLE_KEY);
            assemblyAi = new FakeAssemblyAi(ASSEMBLYAI_KEY);
            openAiTranscription = new FakeOpenAiTranscription(OPENAI_KEY);
            customTranscriber = new FakeCustomTranscriber();
            customVoice = new FakeCustomVoice(CUSTOM_VOICE_SECRET);
            speechmatics = new FakeSpeechmatics(SPEECHMATICS_KEY);
            soniox = new FakeSoniox(SONIOX_KEY);
            gladia = new FakeGladia(GLADIA_KEY);
            cartesia = new FakeCartesia(CARTESIA_KEY);
        }
        Map<String, String> urls = new java.util.TreeMap<>();
        urls.put("voice.runtime.url.deepgram", "ws://127.0.0.1:" + deepgram.port());
        urls.put("voice.runtime.url.openai", openai.baseUrl());
        urls.put("voice.runtime.url.elevenlabs", elevenlabs.baseUrl());
        urls.put("voice.runtime.url.azure", azure.baseUrl());
        urls.put("voice.runtime.url.rime-ai", rime.baseUrl());
        urls.put("voice.runtime.url.lmnt", lmnt.baseUrl());
        urls.put("voice.runtime.url.anthropic", anthropic.baseUrl());
        urls.put("voice.runtime.url.google", gemini.baseUrl());
        urls.put("voice.runtime.url.azure-openai", "http://127.0.0.1:" + openai.port());
        urls.put("voice.runtime.url.assembly-ai", assemblyAi.baseUrl());
        urls.put("voice.runtime.url.openai-transcription", openAiTranscription.baseUrl());
        urls.put("voice.runtime.url.cartesia", cartesia.baseUrl());
        urls.put("voice.runtime.url.speechmatics", speechmatics.baseUrl());
        urls.put("voice.runtime.url.soniox", soniox.baseUrl());
        urls.put("voice.runtime.url.gladia", gladia.baseUrl());
        return urls;
    }

    @Override
    public void stop() {
        // The fakes live for the whole test run (several Quarkus applications may use them); the JVM ends them.
    }
}
