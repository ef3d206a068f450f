package dev.voiceplane.runtime.provider;

/**
 * One assistant's providers with the organisation's credentials, ready for a call (its first member at admission,
 * another at a squad hand-off): a transcriber, a model and a voice (the transcriber is opened by the conversation,
 * which is its listener), or a realtime model alone ({@code realtime} not null; the three others null).
 */
public record ProviderSet(SpeechToText.Factory transcriber, LanguageModel model, TextToSpeech voice,
        RealtimeModel realtime) {

    public ProviderSet(SpeechToText.Factory transcriber, LanguageModel model, TextToSpeech voice) {
        this(transcriber, model, voice, null);
    }

    /** A realtime model's set. */
    public static ProviderSet realtime(RealtimeModel realtime) {
        return new ProviderSet(null, null, null, realtime);
    }
}
