package dev.voiceplane.runtime.provider;

import java.util.List;

/**
 * A streaming chat model, in no vendor's format: each model provider ({@code provider/<vendor>/}) turns a
 * {@link ChatRequest} into its own wire format and its stream back into text, tool calls and usage. The listener is
 * called on the call's context; at most one of done/failed.
 */
public interface LanguageModel {

    interface Listener {
        void text(String delta);

        /**
         * The model asks for tools: called once, just before {@link #done}, with every call of the answer, their
         * arguments whole.
         */
        default void toolCalls(List<ToolCall> calls) {
        }

        /** The answer ended; the tokens it used (0 when the provider does not say). */
        void done(long promptTokens, long completionTokens);

        /**
         * The answer ended, with what it used in detail (cached input, who answered): a provider that knows more
         * than the two totals calls this; a listener that wants only the totals hears {@link #done(long, long)}.
         */
        default void done(ModelUsage usage) {
            done(usage.promptTokens(), usage.completionTokens());
        }

        void failed(ProviderError error);
    }

    /** Starts one completion; what it returns cancels it (no listener call after). */
    Runnable stream(ChatRequest request, Listener listener);
}
