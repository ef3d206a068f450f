package dev.voiceplane.runtime.provider;

/** A voice. Its listener is called on the call's context; at most one of done/failed. */
public interface TextToSpeech {

    interface Listener {
        /** Audio in the call's format. */
        void audio(byte[] audio);

        void done();

        void failed(ProviderError error);
    }

    /**
     * Starts speaking {@code text}; the answer cancels it (no listener call after). Several pieces of one reply may be
     * in flight at once (the next is asked for while the previous plays): each piece's audio reaches its own listener.
     */
    Runnable speak(String text, Listener listener);

    /**
     * The call no longer needs this voice (it ended, or a hand-off gave it another): a voice holding a connection for
     * the call (a WebSocket) closes it. Pieces still in flight hear nothing more; nothing is spoken after.
     */
    default void close() {
    }
}
