package dev.voiceplane.runtime.provider;

/**
 * One call's speech-to-speech session (docs/voice-runtime.md, "Realtime models"): the caller's audio goes in as it
 * comes, in the call's format; the model decides when the caller's turn ends (its own voice activity detection),
 * answers with audio in the call's format and the words of that audio, calls tools, and hears their results. The
 * runtime asks for replies of its own ({@link #respond}: a first message, a goodbye, the reply after tool results),
 * cancels the one playing and cuts the model's memory of it to what the caller heard ({@link #truncate}). Listener
 * calls come on the call's context.
 */
public interface RealtimeSession {

    /** What the session tells the call. */
    interface Listener {
        /** The model heard the caller start speaking. */
        void speechStarted();

        /** The model heard the caller stop speaking. */
        void speechStopped();

        /** What the caller said in one utterance (the model's transcription of it). */
        void callerTranscript(String itemId, String text);

        /** A reply began; {@code tag} is the one given to {@link #respond}, null for a reply the model began itself. */
        void responseStarted(String responseId, String tag);

        /** Audio of the reply's output item {@code itemId}, in the call's format. */
        void audio(String responseId, String itemId, byte[] audio);

        /** Words of that audio as they come. */
        void transcriptDelta(String responseId, String itemId, String delta);

        /** All the words of that audio. */
        void transcriptDone(String responseId, String itemId, String transcript);

        /** The output item {@code itemId} is complete (all its audio came). */
        void itemDone(String responseId, String itemId);

        /** The model calls a tool in this reply. */
        void toolCall(String responseId, ToolCall call);

        /**
         * The reply ended: {@code completed}, {@code cancelled}, {@code incomplete} or {@code failed}; its tokens,
         * with their text, audio and cached parts where the provider details them.
         */
        void responseDone(String responseId, String status, RealtimeUsage usage);

        /**
         * The reply ended, with its tokens as two totals (input and output, text and audio together): for a provider
         * that does not detail them; they are costed as a chat model's tokens.
         */
        default void responseDone(String responseId, String status, long inputTokens, long outputTokens) {
            responseDone(responseId, status, RealtimeUsage.totals(inputTokens, outputTokens));
        }

        /** The session failed; nothing more comes. */
        void failed(ProviderError error);
    }

    /** Caller audio in the call's format. */
    void audio(byte[] audio);

    /**
     * Asks for a reply now, or once the reply under way has ended (one at a time): with {@code instructions} for this
     * reply only (null: the session's), tagged {@code tag} (handed back by {@link Listener#responseStarted}).
     */
    void respond(String instructions, String tag);

    /** Stops the reply under way, if any; replies asked for with {@code tag} (null: none) and not begun are dropped. */
    void cancel(String tag);

    /** The caller heard {@code heardMillis} of the audio of item {@code itemId}: the model forgets the rest. */
    void truncate(String itemId, long heardMillis);

    /**
     * With {@link RealtimeRequest#runtimeTurns()}: the runtime's voice detection heard the caller begin speaking. The
     * audio from here is the caller's utterance (the session keeps what it needs before it as padding).
     */
    default void callerStarted() {
    }

    /**
     * With {@link RealtimeRequest#runtimeTurns()}: the runtime ended the caller's turn; the audio of the utterance
     * is the caller's message, and the reply to it is asked for, tagged {@code tag} as {@link #respond}'s.
     */
    default void callerEnded(String tag) {
    }

    /**
     * With {@link RealtimeRequest#runtimeTurns()}: what the caller said since {@link #callerStarted} is no turn (a
     * backchannel or a noise over the reply, which went on): the model forgets it.
     */
    default void callerDropped() {
    }

    /** Words of the caller given as text (a keypad entry), a user item of the conversation for the next reply. */
    void userText(String text);

    /** The result of the tool call {@code callId}, for the model's next reply. */
    void toolResult(String callId, String output);

    /** Ends the session. */
    void close();
}
