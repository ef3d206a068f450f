package dev.voiceplane.runtime.provider.custom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.HttpVoice;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderName;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.VoiceProvider;
import dev.voiceplane.runtime.provider.VoiceSettings;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code voice.provider: custom-voice}: the customer's own speech server, asked as the hosted platform asks it
 * ("custom TTS"): for each piece of the reply, {@code POST <voice.server.url>} with
 * {@code {"message":{"type":"voice-request","text","sampleRate","timestamp"}}} (and {@code assistant.voice.voiceId}
 * when the assistant names a voice), {@code server.secret} as {@code x-vapi-secret} and {@code server.headers} with
 * the request; the answer is raw PCM16 little-endian mono at {@code sampleRate}, streamed ({@link HttpVoice} turns it
 * into the call's format). The rate asked is the call's own (8000 Hz for a phone call, made μ-law here; 16000 Hz for a
 * web call), both among the rates the hosted platform asks for, so no audio is resampled.
 *
 * <p>No credential is needed; when the organisation has a {@code custom-voice} credential, its key goes as
 * {@code Authorization: Bearer}. {@code server.timeoutSeconds} bounds how long an answer may go silent once it has
 * begun (else {@code VOICE_PROVIDER_TIMEOUT}); the first audio must come within {@code VOICE_TTS_FIRST_AUDIO_DEADLINE},
 * as for every voice. A {@code Content-Type} among {@code server.headers} is not sent: the body is JSON.
 */
@Singleton
class CustomVoices implements VoiceProvider {

    static final String PROVIDER = "custom-voice";

    private final ProviderClients clients;

    CustomVoices(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(new ProviderName(PROVIDER, PROVIDER, true));
    }

    @Override
    public Optional<String> refused(VoiceSettings settings) {
        JsonNode url = settings.raw() == null ? null : settings.raw().path("server").path("url");
        if (url == null || !url.isTextual() || url.asText().isBlank()) {
            return Optional.of("needs voice.server.url");
        }
        String address = url.asText().trim().toLowerCase(Locale.ROOT);
        if (!address.startsWith("http://") && !address.startsWith("https://")) {
            return Optional.of("needs an http or https voice.server.url");
        }
        return Optional.empty();
    }

    @Override
    public TextToSpeech open(VoiceSettings voice, Credential credential, AudioFormat format) {
        JsonNode server = voice.raw().path("server");
        String url = server.path("url").asText().trim();
        Map<String, String> headers = new LinkedHashMap<>();
        server.path("headers").fields().forEachRemaining(header -> {
            if (header.getValue().isValueNode() && !header.getValue().isNull()
                    && !"content-type".equalsIgnoreCase(header.getKey())) {
                headers.put(header.getKey(), header.getValue().asText());
            }
        });
        if (server.path("secret").isTextual() && !server.path("secret").asText().isEmpty()) {
            headers.put("x-vapi-secret", server.path("secret").asText());
        }
        if (credential.apiKey() != null && !credential.apiKey().isBlank()) {
            headers.put("Authorization", "Bearer " + credential.apiKey());
        }
        long idleMillis = server.path("timeoutSeconds").isNumber()
                ? Math.round(server.path("timeoutSeconds").asDouble() * 1000) : clients.timeoutMillis();
        int rate = format.sampleRate();
        Map<String, String> sent = Map.copyOf(headers);
        return new HttpVoice(clients.vertx(), clients.http(), PROVIDER, text -> {
            ObjectNode body = clients.json().createObjectNode();
            ObjectNode message = body.putObject("message").put("type", "voice-request").put("text", text)
                    .put("sampleRate", rate).put("timestamp", System.currentTimeMillis());
            if (voice.voiceId() != null && !voice.voiceId().isBlank()) {
                message.putObject("assistant").putObject("voice").put("provider", PROVIDER)
                        .put("voiceId", voice.voiceId());
            }
            return new HttpVoice.Request(url, sent, body.toString());
        }, format, rate, idleMillis, clients.deadlines().firstAudioMillis());
    }
}
