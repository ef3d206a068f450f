package dev.voiceplane.runtime.provider;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.conversation.CallPlan;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The providers this runtime speaks, where each is reached (a base URL per provider, so self-hosted
 * OpenAI-compatible servers work), and which credential provider holds each one's key. One HTTP client and one
 * WebSocket client for all calls: pooled keep-alive connections, handlers on the calling call's context.
 */
@ApplicationScoped
public class ProviderDirectory {

    /** OpenAI's chat surface, spoken by these model providers at their own base URLs. */
    public static final Set<String> CHAT_PROVIDERS = Set.of("openai", "groq", "together-ai", "anyscale", "openrouter",
            "perplexity-ai", "deepinfra", "custom-llm");
    public static final Set<String> TRANSCRIBERS = Set.of("deepgram");
    public static final Set<String> VOICES = Set.of("11labs", "elevenlabs", "openai");

    /** How long each stage may take to give its first answer before it has failed (docs/voice-runtime.md). */
    public record Deadlines(long transcriberMillis, long firstTokenMillis, long firstAudioMillis) {
    }

    private final Vertx vertx;
    private final Config config;
    private final ObjectMapper json;
    private final EventLoopHttpClients http;
    private final WebSocketClient webSockets;
    private final long timeoutMillis;
    private final Deadlines deadlines;

    public ProviderDirectory(Vertx vertx, Config config, ObjectMapper json,
            @ConfigProperty(name = "voice.runtime.provider-timeout") Duration timeout,
            @ConfigProperty(name = "voice.runtime.deadline.transcriber") Duration transcriberDeadline,
            @ConfigProperty(name = "voice.runtime.deadline.llm-first-token") Duration firstTokenDeadline,
            @ConfigProperty(name = "voice.runtime.deadline.tts-first-audio") Duration firstAudioDeadline) {
        this.vertx = vertx;
        this.config = config;
        this.deadlines = new Deadlines(transcriberDeadline.toMillis(), firstTokenDeadline.toMillis(),
                firstAudioDeadline.toMillis());
        this.json = json;
        this.timeoutMillis = timeout.toMillis();
        this.http = new EventLoopHttpClients(vertx, new HttpClientOptions().setKeepAlive(true)
                .setConnectTimeout((int) Math.min(timeoutMillis, 5000)).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(4096));
        // One transcriber socket per live call, all to the same host: Vert.x's default of 50 WebSockets per host
        // would leave every call past the 50th deaf (measured with deploy/bench/runtime, 2026-11-26).
        this.webSockets = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(100_000)
                .setConnectTimeout((int) Math.min(timeoutMillis, 5000)).setMaxFrameSize(1 << 20)
                .setMaxMessageSize(4 << 20).setTcpNoDelay(true));
    }

    /** The credential provider whose key a transcriber, model or voice provider uses. */
    public static String credentialOf(String provider) {
        return "elevenlabs".equals(provider) ? "11labs" : provider;
    }

    /** Whether a call's key is optional (a self-hosted server may take none). */
    public static boolean keyOptional(String provider) {
        return "custom-llm".equals(provider);
    }

    /** Checks every provider of the plan is spoken here; the message names the first that is not. */
    public static Optional<String> unsupported(CallPlan plan) {
        if (!TRANSCRIBERS.contains(plan.transcriber().provider())) {
            return Optional.of("transcriber provider " + plan.transcriber().provider() + " is not supported by this runtime");
        }
        if (plan.model() == null || plan.model().provider() == null) {
            return Optional.of("the assistant has no model");
        }
        if (!CHAT_PROVIDERS.contains(plan.model().provider())) {
            return Optional.of("model provider " + plan.model().provider() + " is not supported by this runtime");
        }
        if ("custom-llm".equals(plan.model().provider()) && plan.model().url() == null) {
            return Optional.of("model provider custom-llm needs model.url");
        }
        if (plan.voice() == null || plan.voice().provider() == null) {
            return Optional.of("the assistant has no voice");
        }
        if (!VOICES.contains(plan.voice().provider())) {
            return Optional.of("voice provider " + plan.voice().provider() + " is not supported by this runtime");
        }
        return Optional.empty();
    }

    public SpeechToText transcriber(Context context, CallPlan plan, String apiKey, AudioFormat format,
            SpeechToText.Listener listener) {
        return DeepgramTranscriber.open(context, webSockets, url("deepgram"), apiKey, plan.transcriber(), format,
                listener, json, deadlines.transcriberMillis());
    }

    public LanguageModel model(CallPlan plan, String apiKey) {
        CallPlan.Model model = plan.model();
        String base = "custom-llm".equals(model.provider()) ? model.url() : url(model.provider());
        return new OpenAiChat(vertx, http, json, base, apiKey, model.temperature(), model.maxTokens(), timeoutMillis,
                deadlines.firstTokenMillis());
    }

    public TextToSpeech voice(CallPlan plan, String apiKey, AudioFormat format) {
        CallPlan.Voice voice = plan.voice();
        if ("openai".equals(voice.provider())) {
            String url = url("openai") + "/audio/speech";
            return new HttpVoice(vertx, http, text -> {
                ObjectNode body = json.createObjectNode().put("model", "tts-1").put("input", text)
                        .put("voice", voice.voiceId()).put("response_format", "pcm");
                if (voice.speed() != null) {
                    body.put("speed", voice.speed());
                }
                return new HttpVoice.Request(url, Map.of("Authorization", "Bearer " + apiKey), body.toString());
            }, format, 24000, timeoutMillis, deadlines.firstAudioMillis());
        }
        String outputFormat = format == AudioFormat.ULAW_8K ? "ulaw_8000" : "pcm_16000";
        String url = url("elevenlabs") + "/v1/text-to-speech/"
                + URLEncoder.encode(voice.voiceId(), StandardCharsets.UTF_8) + "/stream?output_format=" + outputFormat;
        return new HttpVoice(vertx, http, text -> {
            ObjectNode body = json.createObjectNode().put("text", text).put("model_id", "eleven_turbo_v2_5");
            if (voice.speed() != null) {
                body.putObject("voice_settings").put("speed", voice.speed());
            }
            return new HttpVoice.Request(url, Map.of("xi-api-key", apiKey), body.toString());
        }, format, null, timeoutMillis, deadlines.firstAudioMillis());
    }

    private String url(String provider) {
        String key = "voice.runtime.url." + provider;
        return config.getOptionalValue(key, String.class)
                .orElseThrow(() -> new ProviderFailure("no base URL configured for " + provider + " (" + key + ")"))
                .replaceAll("/+$", "");
    }
}
