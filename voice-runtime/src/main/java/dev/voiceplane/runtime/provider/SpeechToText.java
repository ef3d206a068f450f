package dev.voiceplane.runtime.provider;

/** A live transcription of one caller's audio. Its listener is called on the call's context. */
public interface SpeechToText {

    /** Opens a transcription with its listener (a call opens its transcriber once its conversation exists). */
    @FunctionalInterface
    interface Factory {
        SpeechToText open(Listener listener);
    }

    /** What the transcriber says. {@code text} of a final is that segment's words only. */
    interface Listener {
        void speechStarted();

        void interim(String text);

        /** A segment that will not change; {@code endOfTurn} when the transcriber marks an end of speech. */
        void segment(String text, boolean endOfTurn);

        void failed(ProviderError error);
    }

    /** Audio in the call's format. */
    void send(byte[] audio);

    /** Asks for the final words of what was heard so far now (the caller stopped speaking). */
    void finalizeTurn();

    /** Seconds of audio sent, for the call's usage. */
    double secondsSent();

    void close();
}
