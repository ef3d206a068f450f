package dev.voiceplane.runtime.fake;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every provider fake the voice runtime's conversations are held with, started together, each taking the key of its
 * credential provider, and where the runtime finds them: as {@code voice.runtime.url.<provider>} settings
 * ({@link #configuration()}, what the runtime's Quarkus tests set) or as the base-URL variables an operator sets
 * ({@link #environment()}, docs/voice-runtime.md, "Providers"), as deploy/local's system tests start the whole stack.
 *
 * <p>Some vendors' fakes serve another stage on the same server, as the vendor does on one host: Deepgram's live
 * transcription, Flux ({@link FakeDeepgram#flux()}) and Aura ({@link FakeDeepgram#aura()}); ElevenLabs' speech and
 * Scribe ({@link FakeElevenLabs#scribe()}); Cartesia's speech and Ink ({@link FakeCartesia#stt()}); Gemini's chat and
 * the Gemini Live API ({@link FakeGemini#live()}), both under {@code VOICE_GOOGLE_API_URL}. OpenAI's chat
 * completions ({@link #openai()}) also answer Azure OpenAI's deployments with the {@code azure-openai} key, at
 * {@link #azureOpenAiEndpoint()}; OpenAI's transcription ({@link #openAiTranscription()}) takes the {@code openai}
 * key, and so do OpenAI's Realtime speech-to-speech sessions ({@link #openAiRealtime()}), on a server of their own
 * that the runtime reaches by its setting {@code voice.runtime.url.openai-realtime} (in production
 * {@code VOICE_OPENAI_API_URL} serves both). The custom transcriber and voice are the customer's own servers: the assistant names their URLs.
 */
public final class ProviderFakes implements AutoCloseable {

    /** The credential providers whose keys the fakes take, each the key of the fake(s) named after it. */
    public static final List<String> KEYED = List.of("deepgram", "openai", "11labs", "azure", "rime-ai", "lmnt",
            "anthropic", "google", "azure-openai", "assembly-ai", "cartesia", "speechmatics", "soniox", "gladia");

    private final Map<String, String> keys;
    private final FakeDeepgram deepgram;
    private final FakeOpenAi openai;
    private final FakeElevenLabs elevenlabs;
    private final FakeAzureSpeech azure;
    private final FakeRime rime;
    private final FakeLmnt lmnt;
    private final FakeAnthropic anthropic;
    private final FakeGemini gemini;
    private final FakeAssemblyAi assemblyAi;
    private final FakeOpenAiTranscription openAiTranscription;
    private final FakeCustomTranscriber customTranscriber;
    private final FakeCustomVoice customVoice;
    private final FakeSpeechmatics speechmatics;
    private final FakeSoniox soniox;
    private final FakeGladia gladia;
    private final FakeCartesia cartesia;
    private final FakeOpenAiRealtime openAiRealtime;

    /**
     * Starts every fake, each taking {@code keys.get(<its credential provider>)} (one for each of {@link #KEYED}), and
     * the custom voice's server asking for {@code customVoiceSecret} as {@code X-VAPI-SECRET}.
     */
    public ProviderFakes(Map<String, String> keys, String customVoiceSecret) {
        for (String provider : KEYED) {
            if (keys.get(provider) == null) {
                throw new IllegalArgumentException("no key for the " + provider + " fake");
            }
        }
        this.keys = Map.copyOf(keys);
        deepgram = new FakeDeepgram(key("deepgram"));
        openai = new FakeOpenAi(key("openai")).azureKey(key("azure-openai"));
        elevenlabs = new FakeElevenLabs(key("11labs"));
        azure = new FakeAzureSpeech(key("azure"));
        rime = new FakeRime(key("rime-ai"));
        lmnt = new FakeLmnt(key("lmnt"));
        anthropic = new FakeAnthropic(key("anthropic"));
        gemini = new FakeGemini(key("google"));
        assemblyAi = new FakeAssemblyAi(key("assembly-ai"));
        openAiTranscription = new FakeOpenAiTranscription(key("openai"));
        customTranscriber = new FakeCustomTranscriber();
        customVoice = new FakeCustomVoice(customVoiceSecret);
        speechmatics = new FakeSpeechmatics(key("speechmatics"));
        soniox = new FakeSoniox(key("soniox"));
        gladia = new FakeGladia(key("gladia"));
        cartesia = new FakeCartesia(key("cartesia"));
        openAiRealtime = new FakeOpenAiRealtime(key("openai"));
    }

    /** The key the fakes of credential provider {@code provider} take. */
    public String key(String provider) {
        String key = keys.get(provider);
        if (key == null) {
            throw new IllegalArgumentException("no fake takes a " + provider + " key");
        }
        return key;
    }

    /** Every fake's base URL as the runtime's {@code voice.runtime.url.<provider>} settings. */
    public Map<String, String> configuration() {
        Map<String, String> urls = new TreeMap<>();
        urls.put("voice.runtime.url.deepgram", deepgramUrl());
        urls.put("voice.runtime.url.openai", openai.baseUrl());
        urls.put("voice.runtime.url.elevenlabs", elevenlabs.baseUrl());
        urls.put("voice.runtime.url.azure", azure.baseUrl());
        urls.put("voice.runtime.url.rime-ai", rime.baseUrl());
        urls.put("voice.runtime.url.lmnt", lmnt.baseUrl());
        urls.put("voice.runtime.url.anthropic", anthropic.baseUrl());
        urls.put("voice.runtime.url.google", gemini.baseUrl());
        urls.put("voice.runtime.url.azure-openai", azureOpenAiEndpoint());
        urls.put("voice.runtime.url.assembly-ai", assemblyAi.baseUrl());
        urls.put("voice.runtime.url.openai-transcription", openAiTranscription.baseUrl());
        urls.put("voice.runtime.url.cartesia", cartesia.baseUrl());
        urls.put("voice.runtime.url.speechmatics", speechmatics.baseUrl());
        urls.put("voice.runtime.url.soniox", soniox.baseUrl());
        urls.put("voice.runtime.url.gladia", gladia.baseUrl());
        urls.put("voice.runtime.url.openai-realtime", openAiRealtime.baseUrl());
        return urls;
    }

    /**
     * Every fake's base URL as the variable an operator sets (docs/voice-runtime.md, "Providers"). Azure OpenAI's
     * endpoint is not among them: it is the organisation's {@code azure-openai} credential's {@code openAIEndpoint}
     * ({@link #azureOpenAiEndpoint()}), as each organisation has an Azure resource of its own. OpenAI's Realtime
     * fake is given as the variable of the runtime's setting {@code voice.runtime.url.openai-realtime}
     * ({@code VOICE_RUNTIME_URL_OPENAI_REALTIME}), since its chat fake answers at {@code VOICE_OPENAI_API_URL}.
     */
    public Map<String, String> environment() {
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("VOICE_DEEPGRAM_URL", deepgramUrl());
        variables.put("VOICE_OPENAI_API_URL", openai.baseUrl());
        variables.put("VOICE_OPENAI_TRANSCRIPTION_URL", openAiTranscription.baseUrl());
        variables.put("VOICE_ELEVENLABS_URL", elevenlabs.baseUrl());
        variables.put("VOICE_AZURE_SPEECH_URL", azure.baseUrl());
        variables.put("VOICE_RIME_URL", rime.baseUrl());
        variables.put("VOICE_LMNT_URL", lmnt.baseUrl());
        variables.put("VOICE_ANTHROPIC_API_URL", anthropic.baseUrl());
        variables.put("VOICE_GOOGLE_API_URL", gemini.baseUrl());
        variables.put("VOICE_ASSEMBLYAI_URL", assemblyAi.baseUrl());
        variables.put("VOICE_CARTESIA_URL", cartesia.baseUrl());
        variables.put("VOICE_SPEECHMATICS_URL", speechmatics.baseUrl());
        variables.put("VOICE_SONIOX_URL", soniox.baseUrl());
        variables.put("VOICE_GLADIA_URL", gladia.baseUrl());
        variables.put("VOICE_RUNTIME_URL_OPENAI_REALTIME", openAiRealtime.baseUrl());
        return variables;
    }

    private String deepgramUrl() {
        return "ws://127.0.0.1:" + deepgram.port();
    }

    /** Azure OpenAI's endpoint ({@code <endpoint>/openai/deployments/…}): the OpenAI fake's server. */
    public String azureOpenAiEndpoint() {
        return "http://127.0.0.1:" + openai.port();
    }

    public FakeDeepgram deepgram() {
        return deepgram;
    }

    public FakeOpenAi openai() {
        return openai;
    }

    public FakeElevenLabs elevenlabs() {
        return elevenlabs;
    }

    public FakeAzureSpeech azure() {
        return azure;
    }

    public FakeRime rime() {
        return rime;
    }

    public FakeLmnt lmnt() {
        return lmnt;
    }

    public FakeAnthropic anthropic() {
        return anthropic;
    }

    public FakeGemini gemini() {
        return gemini;
    }

    public FakeAssemblyAi assemblyAi() {
        return assemblyAi;
    }

    /** OpenAI's Realtime transcription and {@code /audio/transcriptions}, with the {@code openai} key. */
    public FakeOpenAiTranscription openAiTranscription() {
        return openAiTranscription;
    }

    /** A customer's transcription server (its URL goes in the assistant's {@code transcriber.server.url}). */
    public FakeCustomTranscriber customTranscriber() {
        return customTranscriber;
    }

    /** A customer's speech server (its URL goes in the assistant's {@code voice.server.url}). */
    public FakeCustomVoice customVoice() {
        return customVoice;
    }

    /** OpenAI's Realtime speech-to-speech sessions ({@code gpt-realtime}…), with the {@code openai} key. */
    public FakeOpenAiRealtime openAiRealtime() {
        return openAiRealtime;
    }

    public FakeCartesia cartesia() {
        return cartesia;
    }

    public FakeSpeechmatics speechmatics() {
        return speechmatics;
    }

    public FakeSoniox soniox() {
        return soniox;
    }

    public FakeGladia gladia() {
        return gladia;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable fake : new AutoCloseable[] {deepgram, openai, elevenlabs, azure, rime, lmnt, anthropic,
                gemini, assemblyAi, openAiTranscription, customTranscriber, customVoice, speechmatics, soniox, gladia,
                cartesia, openAiRealtime}) {
            fake.close();
        }
    }
}
