package dev.voiceplane.runtime.provider;

import dev.voiceplane.runtime.audio.AudioFormat;
import io.vertx.core.Context;
import java.util.List;
import java.util.Optional;

/**
 * One vendor's speech-to-speech models: a CDI bean in {@code provider/<vendor>/}, found by {@link ProviderDirectory}
 * by the {@code model.provider} it serves and the model ids it lists. An assistant whose model it serves runs on the
 * realtime engine: no transcriber and no voice.
 */
public interface RealtimeProvider {

    /** The {@code model.provider} values it serves. */
    List<ProviderName> names();

    /** Whether {@code model} (of a provider it serves) is one of its realtime models. */
    boolean serves(ModelSettings model);

    /** Why it cannot run these settings (a voice it does not have); empty when it can. */
    default Optional<String> refused(ModelSettings model, VoiceSettings voice) {
        return Optional.empty();
    }

    /** The model for one call. */
    RealtimeModel open(Context context, ModelSettings model, Credential credential, AudioFormat format);
}
