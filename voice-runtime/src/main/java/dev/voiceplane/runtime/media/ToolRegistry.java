package dev.voiceplane.runtime.media;

import dev.voiceplane.runtime.client.ToolCallClient;
import dev.voiceplane.runtime.conversation.FunctionTool;
import dev.voiceplane.runtime.conversation.ToolRunners;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The tool types this runtime runs, each with its runner (docs/voice-runtime.md, "Tools"): the built-in ones
 * ({@code endCall}, {@code dtmf}) and those that need the runtime's services, built once and shared by every call.
 */
@ApplicationScoped
public class ToolRegistry {

    private final ToolRunners runners;

    public ToolRegistry(ToolCallClient toolCalls) {
        // transferCall's runner belongs to each call (conversation.Transfers): Conversation adds it.
        this.runners = ToolRunners.builtIn().with("function", new FunctionTool(toolCalls));
    }

    public ToolRunners runners() {
        return runners;
    }
}
