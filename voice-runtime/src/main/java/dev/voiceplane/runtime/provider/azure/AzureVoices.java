package dev.voiceplane.runtime.provider.azure;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.Credential;
import dev.voiceplane.runtime.provider.HttpVoice;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderDirectory;
import dev.voiceplane.runtime.provider.ProviderFailure;
import dev.voiceplane.runtime.provider.ProviderName;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.VoiceProvider;
import dev.voiceplane.runtime.provider.VoiceSettings;
import jakarta.inject.Singleton;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code voice.provider: azure}: Azure Speech's text-to-speech REST API, {@code POST /cognitiveservices/v1} with
 * {@code Ocp-Apim-Subscription-Key}, an SSML body (the voice name from {@code voice.voiceId}, {@code xml:lang} from
 * {@code voice.language} or the voice name's locale, {@code speed} as the prosody rate: a multiplier, Azure takes 0.5
 * to 2) and the call's own format as {@code X-Microsoft-OutputFormat} ({@code raw-8khz-8bit-mono-mulaw} or
 * {@code raw-16khz-16bit-mono-pcm}: nothing to convert). The short names the hosted platform's interface lists
 * ({@code andrew}, {@code brian}, {@code emma}) are taken as Azure's multilingual voices of those names.
 *
 * <p>Where: {@code VOICE_AZURE_SPEECH_URL} when set (whatever the region: a sovereign cloud, a container, a fake),
 * else the host of the credential's {@code region} ({@code https://<region>.tts.speech.microsoft.com}). A credential
 * without a region (or with one that is not a region name) and no {@code VOICE_AZURE_SPEECH_URL} cannot be used: the
 * voice is refused when the call opens it, and the call ends at its start saying why.
 */
@Singleton
class AzureVoices implements VoiceProvider {

    static final String PROVIDER = "azure";
    static final String VARIABLE = "VOICE_AZURE_SPEECH_URL";
    /** Azure requires a {@code User-Agent} naming the application. */
    static final String USER_AGENT = "voiceplane-voice-runtime";

    /** The hosted platform's short voice ids (its interface's enum), as Azure voice names. */
    static final Map<String, String> SHORT_NAMES = Map.of(
            "andrew", "en-US-AndrewMultilingualNeural",
            "brian", "en-US-BrianMultilingualNeural",
            "emma", "en-US-EmmaMultilingualNeural");

    /** An Azure region name: {@code eastus}, {@code westeurope}; nothing that could change the host. */
    private static final Pattern REGION = Pattern.compile("[a-z0-9]{2,40}");
    /** A voice name's locale: {@code en-US} of {@code en-US-JennyNeural}. */
    private static final Pattern LOCALE = Pattern.compile("([a-z]{2,3}-[A-Za-z]{2,4})-.+");
    /** Characters XML 1.0 does not allow (Azure would refuse the SSML). */
    private static final Pattern NOT_XML = Pattern.compile("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\uFFFE\\uFFFF]");

    private final ProviderClients clients;

    AzureVoices(ProviderClients clients) {
        this.clients = clients;
    }

    @Override
    public List<ProviderName> names() {
        return List.of(ProviderName.of(PROVIDER));
    }

    @Override
    public Optional<String> refused(VoiceSettings voice) {
        return voice.voiceId() == null || voice.voiceId().isBlank()
                ? Optional.of("needs voice.voiceId: an Azure voice name such as en-US-JennyNeural")
                : Optional.empty();
    }

    @Override
    public TextToSpeech open(VoiceSettings voice, Credential credential, AudioFormat format) {
        String url = endpoint(clients.url(PROVIDER, VARIABLE, ""), credential.field("region"));
        String voiceName = voiceName(voice.voiceId());
        String lang = voice.text("language", locale(voiceName));
        Map<String, String> headers = Map.of("Ocp-Apim-Subscription-Key", credential.apiKey(),
                "X-Microsoft-OutputFormat", outputFormat(format), "User-Agent", USER_AGENT);
        return new HttpVoice(clients.vertx(), clients.http(), voice.provider(),
                text -> new HttpVoice.Request(url, headers, ssml(voiceName, lang, voice.speed(), text),
                        "application/ssml+xml"),
                format, null, clients.timeoutMillis(), clients.deadlines().firstAudioMillis());
    }

    /**
     * The synthesis endpoint: under {@code configured} (the base URL variable; empty when unset) whatever the region,
     * else on the region's own host. Fails with {@link ProviderFailure} when neither says where.
     */
    static String endpoint(String configured, String region) {
        if (configured != null && !configured.isBlank()) {
            return configured.replaceAll("/+$", "") + "/cognitiveservices/v1";
        }
        String name = region == null ? "" : region.trim().toLowerCase(Locale.ROOT);
        if (name.isEmpty()) {
            throw new ProviderFailure(ProviderDirectory.VOICE, PROVIDER, "no-key", "the organisation's " + PROVIDER
                    + " credential has no region (an Azure region name such as eastus), and " + VARIABLE
                    + " is not set, so the voice provider azure has no address");
        }
        if (!REGION.matcher(name).matches()) {
            throw new ProviderFailure(ProviderDirectory.VOICE, PROVIDER, "no-key", "the region of the organisation's "
                    + PROVIDER + " credential is not an Azure region name (such as eastus)");
        }
        return "https://" + name + ".tts.speech.microsoft.com/cognitiveservices/v1";
    }

    /** {@code voice.voiceId} as an Azure voice name. */
    static String voiceName(String voiceId) {
        String id = voiceId.trim();
        return SHORT_NAMES.getOrDefault(id.toLowerCase(Locale.ROOT), id);
    }

    /** The locale a voice name starts with ({@code en-US}), else {@code en-US}. */
    static String locale(String voiceName) {
        var matcher = LOCALE.matcher(voiceName);
        return matcher.matches() ? matcher.group(1) : "en-US";
    }

    static String outputFormat(AudioFormat format) {
        return format == AudioFormat.ULAW_8K ? "raw-8khz-8bit-mono-mulaw" : "raw-16khz-16bit-mono-pcm";
    }

    /** The SSML Azure is sent for {@code text}: everything the caller's words hold is escaped, never markup. */
    static String ssml(String voiceName, String lang, Double speed, String text) {
        StringBuilder ssml = new StringBuilder(text.length() + 200)
                .append("<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='")
                .append(escape(lang)).append("'><voice name='").append(escape(voiceName)).append("'>");
        if (speed != null) {
            ssml.append("<prosody rate='").append(BigDecimal.valueOf(speed).stripTrailingZeros().toPlainString())
                    .append("'>").append(escape(text)).append("</prosody>");
        } else {
            ssml.append(escape(text));
        }
        return ssml.append("</voice></speak>").toString();
    }

    static String escape(String text) {
        String clean = NOT_XML.matcher(text).replaceAll("");
        StringBuilder escaped = new StringBuilder(clean.length() + 16);
        for (int i = 0; i < clean.length(); i++) {
            char c = clean.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&apos;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
