package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSet;
import java.util.List;
import java.util.Map;

/**
 * How a call's replies are made from the caller's audio (docs/voice-runtime.md, "How a call runs"). The call
 * ({@link Conversation}) owns one engine and lends it a {@link Host}: the engine hears the caller, decides when the
 * caller's turn ends and when the caller speaks over the assistant, and fills the call's {@link Turn}s with speech;
 * the call plays them, keeps the transcript and the history, runs the timers, voicemail and transfers, and ends.
 * {@link CascadeEngine} runs a transcriber, a model and a voice; {@link RealtimeEngine} a speech-to-speech model in
 * their place, behind the same interface. Everything runs on the call's context.
 */
interface TurnEngine {

    /** What the call lends its engine. */
    interface Host {
        /** The plan of the assistant the caller talks to now (another after a squad hand-off). */
        CallPlan plan();

        /** Whether the call runs: not saying goodbye, not holding for a transfer, not ended. */
        boolean running();

        boolean ended();

        /** Whether a machine answered (voicemail): the caller's audio makes no turn and interrupts nothing. */
        boolean machine();

        /** The caller started or stopped speaking (a {@code speech-update}; a machine's greeting, to voicemail). */
        void callerSpeech(boolean started);

        /** The caller is speaking: the silence timeout waits. */
        void callerActive();

        /** The turn the call is playing or about to play (null: none). */
        Turn turn();

        /**
         * Begins a reply to the caller's {@code userText} (null: none) as the call's turn from now, with the time the
         * caller stopped speaking; none of its audio goes out before {@code holdUntil} (nanoTime).
         */
        Turn begin(String userText, long speechEndedAt, long holdUntil);

        /** The caller spoke over the turn: it stops, and the transcript keeps what of it was heard. */
        void interrupt(String why);

        /** The caller went on speaking before the turn was heard: it is dropped, and its caller message too. */
        void withdraw();

        /** The conversation so far, as the model is sent it. */
        List<ChatMessage> history();

        void remember(ChatMessage message);

        /** A transcript message of the call, to be reported later (the caller's, once its reply is heard). */
        Map<String, Object> message(String role, String text, long startMillis, long endMillis);

        /** Reports a transcript message now (a realtime model's caller line, which comes when it comes). */
        void report(Map<String, Object> message);

        /** The call's knowledge base (null: none). */
        Knowledge knowledge();

        /** A provider failed: the call ends ({@code assistant-error}). */
        void providerFailed(String stage, ProviderError error);

        /** What the call used so far, which the engine adds its providers' use to (for the {@code ended} event). */
        CallUsage usage();
    }

    /** Caller audio in the call's format. */
    void audio(byte[] audio);

    /** Speaks {@code text} as the next piece of {@code turn} (a scripted turn: first message, goodbye, voicemail). */
    void speak(Turn turn, String text);

    /** The call's turn has played: words the caller said meanwhile may end a turn now. */
    void turnPlayed();

    /** A machine answered: what the caller said so far makes no turn. */
    void forgetCaller();

    /** Whether the caller is speaking now. */
    boolean callerSpeaking();

    /** Whether the caller is silent and has said nothing still to be answered. */
    boolean callerIdle();

    /**
     * The caller's keypad entry ({@link Keypad}'s text): a caller turn of its own, in the history, the transcript and
     * the live messages like spoken words, and answered. Called only while the call has no turn.
     */
    void keypadEntry(String text);

    /** A reply with no new words of the caller (the history says why: a transfer that did not happen). */
    void replyAgain();

    /** The call goes on with a squad member: its plan (the host's from now) and its providers. */
    void switchTo(CallPlan next, ProviderSet providers);

    /** The first frame of {@code turn} went out at {@code sentAt} (nanoTime). */
    void firstFrameSent(Turn turn, long sentAt);

    /** The call ended (or goes on with the other engine): the providers are closed, their last use added. */
    void close();
}
