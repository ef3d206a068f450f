package dev.voiceplane.runtime.provider;

import dev.voiceplane.runtime.audio.AudioFormat;
import io.vertx.core.Context;
import java.util.List;
import java.util.Optional;

/** One vendor's transcription: a CDI bean in {@code provider/<vendor>/}, found by {@link ProviderDirectory}. */
public interface TranscriberProvider {

    /** The {@code transcriber.provider} values it serves. */
    List<ProviderName> names();

    /** Why it cannot run these settings (a missing field, a value it does not take); empty when it can. */
    default Optional<String> refused(TranscriberSettings settings) {
        return Optional.empty();
    }

    /**
     * Opens a live transcription of the call's audio ({@code format}) from the call's {@code context}: audio sent
     * before the stream is open is held.
     */
    SpeechToText open(Context context, TranscriberSettings settings, Credential credential, AudioFormat format,
            SpeechToText.Listener listener);
}
