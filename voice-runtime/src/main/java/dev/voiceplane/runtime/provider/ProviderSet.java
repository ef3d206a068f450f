package dev.voiceplane.runtime.provider;

/**
 * One assistant's three stages with the organisation's credentials, ready for a call (its first member at admission,
 * another at a squad hand-off): the transcriber is opened by the conversation, which is its listener.
 */
public record ProviderSet(SpeechToText.Factory transcriber, LanguageModel model, TextToSpeech voice) {
}
