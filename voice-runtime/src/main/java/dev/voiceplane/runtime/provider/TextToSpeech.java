package dev.voiceplane.runtime.provider;

/** A voice. Its listener is called on the call's context; at most one of done/failed. */
public interface TextToSpeech {

    interface Listener {
        /** Audio in the call's format. */
        void audio(byte[] audio);

        void done();

        void failed(ProviderError error);
    }

    /** Starts speaking {@code text}; the answer cancels it (no listener call after). */
    Runnable speak(String text, Listener listener);
}
