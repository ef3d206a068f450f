package dev.voiceplane.runtime.provider;

import dev.voiceplane.runtime.conversation.CallPlan.ChatMessage;
import java.util.List;

/** A streaming chat model. Its listener is called on the call's context; at most one of done/failed. */
public interface LanguageModel {

    interface Listener {
        void text(String delta);

        void done(long promptTokens, long completionTokens);

        void failed(String reason);
    }

    /** Starts one completion of {@code model}; the answer cancels it (no listener call after). */
    Runnable stream(String model, List<ChatMessage> messages, Listener listener);
}
