package dev.voiceplane.runtime.provider;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What every provider bean uses: one HTTP client per event loop and one WebSocket client for all calls (pooled
 * keep-alive connections, handlers on the calling call's context), the stages' deadlines, and where each provider is
 * reached (its base URL, so self-hosted and compatible servers work and tests point at fakes).
 */
@ApplicationScoped
public class ProviderClients {

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

    public ProviderClients(Vertx vertx, Config config, ObjectMapper json,
            @ConfigProperty(name = "voice.runtime.provider-timeout") Duration timeout,
            @ConfigProperty(name = "voice.runtime.deadline.transcriber") Duration transcriberDeadline,
            @ConfigProperty(name = "voice.runtime.deadline.llm-first-token") Duration firstTokenDeadline,
            @ConfigProperty(name = "voice.runtime.deadline.tts-first-audio") Duration firstAudioDeadline) {
        this.vertx = vertx;
        this.config = config;
        this.json = json;
        this.timeoutMillis = timeout.toMillis();
        this.deadlines = new Deadlines(transcriberDeadline.toMillis(), firstTokenDeadline.toMillis(),
                firstAudioDeadline.toMillis());
        this.http = new EventLoopHttpClients(vertx, new HttpClientOptions().setKeepAlive(true)
                .setConnectTimeout((int) Math.min(timeoutMillis, 5000)).setTcpNoDelay(true),
                new PoolOptions().setHttp1MaxSize(4096));
        // One provider socket per live call and stage, all to the same host: Vert.x's default of 50 WebSockets per
        // host would leave every call past the 50th deaf (measured with deploy/bench/runtime, 2026-11-26).
        this.webSockets = vertx.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(100_000)
                .setConnectTimeout((int) Math.min(timeoutMillis, 5000)).setMaxFrameSize(1 << 20)
                .setMaxMessageSize(4 << 20).setTcpNoDelay(true));
    }

    public Vertx vertx() {
        return vertx;
    }

    public ObjectMapper json() {
        return json;
    }

    public EventLoopHttpClients http() {
        return http;
    }

    public WebSocketClient webSockets() {
        return webSockets;
    }

    /** How long a provider's stream may go silent once it has answered ({@code VOICE_PROVIDER_TIMEOUT}). */
    public long timeoutMillis() {
        return timeoutMillis;
    }

    public Deadlines deadlines() {
        return deadlines;
    }

    /**
     * The base URL of {@code provider}: {@code voice.runtime.url.<provider>} (application.properties names its
     * environment variable), without a trailing slash.
     */
    public String url(String provider) {
        String key = "voice.runtime.url." + provider;
        return config.getOptionalValue(key, String.class).map(ProviderClients::trimmed)
                .orElseThrow(() -> new ProviderFailure("config", provider, "config",
                        "no base URL configured for " + provider + " (" + key + ")"));
    }

    /**
     * The base URL of {@code provider}, declared in the provider's own code: {@code voice.runtime.url.<provider>} when
     * set (tests point it at a fake), else its environment variable {@code variable} (documented per provider), else
     * the vendor's public address {@code fallback}; without a trailing slash.
     */
    public String url(String provider, String variable, String fallback) {
        return trimmed(config.getOptionalValue("voice.runtime.url." + provider, String.class)
                .filter(value -> !value.isBlank())
                .or(() -> config.getOptionalValue(variable, String.class).filter(value -> !value.isBlank()))
                .orElse(fallback));
    }

    /** An optional setting (a provider's own variable); empty when unset or blank. */
    public Optional<String> setting(String variable) {
        return config.getOptionalValue(variable, String.class).filter(value -> !value.isBlank());
    }

    /** {@code http(s)} to {@code ws(s)}, so one base URL variable serves a vendor's HTTP and WebSocket endpoints. */
    public static String webSocketUrl(String url) {
        return url.startsWith("https://") ? "wss://" + url.substring(8)
                : url.startsWith("http://") ? "ws://" + url.substring(7) : url;
    }

    /** {@code ws(s)} to {@code http(s)}. */
    public static String httpUrl(String url) {
        return url.startsWith("wss://") ? "https://" + url.substring(6)
                : url.startsWith("ws://") ? "http://" + url.substring(5) : url;
    }

    private static String trimmed(String url) {
        return url.replaceAll("/+$", "");
    }
}
