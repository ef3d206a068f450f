package dev.voiceplane.runtime.provider.custom;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import dev.voiceplane.runtime.provider.SpeechToText;
import dev.voiceplane.runtime.provider.TranscriberProvider;
import dev.voiceplane.runtime.provider.TranscriberSettings;
import io.vertx.core.Context;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code transcriber.provider: custom-transcriber}: the customer's own server ({@link CustomTranscriber}) at
 * {@code transcriber.server.url} (ws, wss, http or https: the runtime uses the WebSocket scheme of the pair), with
 * {@code server.secret} as {@code x-vapi-secret} and {@code server.headers}. No credential is needed; when the
 * organisation has a {@code custom-transcriber} credential, its key goes as {@code Authorization: Bearer}.
 * {@code server.timeoutSeconds} is a request timeout of the hosted platform's HTTP servers and has no use on a stream:
 * the transcriber deadline bounds the upgrade.
 */
@Singleton
class CustomTranscribers implements TranscriberProvider {

    static final String PROVIDER = "custom-transcriber";

    private final ProviderClients clients;

    CustomTranscribers(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(new ProviderName(PROVIDER, PROVIDER, true));
    }

    @Override
    public Optional<String> refused(TranscriberSettings settings) {
        JsonNode url = settings.raw().path("server").path("url");
        if (!url.isTextual() || url.asText().isBlank()) {
            return Optional.of("needs transcriber.server.url");
        }
        String scheme = url.asText().toLowerCase(Locale.ROOT);
        if (!(scheme.startsWith("ws://") || scheme.startsWith("wss://") || scheme.startsWith("http://")
                || scheme.startsWith("https://"))) {
            return Optional.of("needs a ws, wss, http or https transcriber.server.url");
        }
        return Optional.empty();
    }

    @Override
    public SpeechToText open(Context context, TranscriberSettings settings, Credential credential, AudioFormat format,
            SpeechToText.Listener listener) {
        JsonNode server = settings.raw().path("server");
        Map<String, String> headers = new LinkedHashMap<>();
        server.path("headers").fields().forEachRemaining(header -> {
            if (header.getValue().isValueNode() && !header.getValue().isNull()) {
                headers.put(header.getKey(), header.getValue().asText());
            }
        });
        if (server.path("secret").isTextual() && !server.path("secret").asText().isEmpty()) {
            headers.put("x-vapi-secret", server.path("secret").asText());
        }
        if (credential.apiKey() != null && !credential.apiKey().isBlank()) {
            headers.put("Authorization", "Bearer " + credential.apiKey());
        }
        return CustomTranscriber.open(context, clients.webSockets(),
                ProviderClients.webSocketUrl(server.path("url").asText().trim()), headers, format, listener,
                clients.json(), clients.deadlines().transcriberMillis());
    }
}
