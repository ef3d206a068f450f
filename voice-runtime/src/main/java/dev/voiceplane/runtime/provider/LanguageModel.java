package dev.voiceplane.runtime.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.runtime.conversation.CallPlan.ChatMessage;
import dev.voiceplane.runtime.conversation.CallPlan.ToolCall;
import java.util.List;

/** A streaming chat model. Its listener is called on the call's context; at most one of done/failed. */
public interface LanguageModel {

    interface Listener {
        void text(String delta);

        /**
         * The model asks for tools (its answer ended {@code finish_reason: tool_calls}): called once, just before
         * {@link #done}, with every call of the answer, their arguments whole.
         */
        default void toolCalls(List<ToolCall> calls) {
        }

        void done(long promptTokens, long completionTokens);

        void failed(String reason);
    }

    /**
     * Starts one completion of {@code model}, offering {@code tools} (OpenAI's {@code tools} items:
     * {@code {type: "function", function: {name, description, parameters}}}; none when empty); the answer cancels
     * it (no listener call after).
     */
    Runnable stream(String model, List<ChatMessage> messages, List<JsonNode> tools, Listener listener);

    /** A completion without tools. */
    default Runnable stream(String model, List<ChatMessage> messages, Listener listener) {
        return stream(model, messages, List.of(), listener);
    }
}
