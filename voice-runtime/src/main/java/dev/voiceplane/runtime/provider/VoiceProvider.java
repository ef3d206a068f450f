package dev.voiceplane.runtime.provider;

import dev.voiceplane.runtime.audio.AudioFormat;
import java.util.List;
import java.util.Optional;

/** One vendor's voices: a CDI bean in {@code provider/<vendor>/}, found by {@link ProviderDirectory}. */
public interface VoiceProvider {

    /** The {@code voice.provider} values it serves. */
    List<ProviderName> names();

    /** Why it cannot run these settings (no voice id, a model it does not have); empty when it can. */
    default Optional<String> refused(VoiceSettings settings) {
        return Optional.empty();
    }

    /** The voice for one call, speaking audio in the call's {@code format}. */
    TextToSpeech open(VoiceSettings settings, Credential credential, AudioFormat format);
}
