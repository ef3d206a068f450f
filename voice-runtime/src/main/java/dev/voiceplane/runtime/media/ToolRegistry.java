package dev.voiceplane.runtime.media;

import dev.voiceplane.runtime.conversation.ToolRunners;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The tool types this runtime runs, each with its runner (docs/voice-runtime.md, "Tools"): the built-in ones
 * ({@code endCall}, {@code dtmf}) and those that need the runtime's services, built once and shared by every call.
 */
@ApplicationScoped
public class ToolRegistry {

    private final ToolRunners runners;

    public ToolRegistry() {
        // transferCall's runner belongs to each call (conversation.Transfers): Conversation adds it.
        this.runners = ToolRunners.builtIn();
    }

    public ToolRunners runners() {
        return runners;
    }
}
