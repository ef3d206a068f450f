package dev.voiceplane.runtime.conversation;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which {@link ToolRunner} runs each tool type: the registration point of tool types. The runtime's set is built
 * once ({@code media.CallAdmission}); {@link #builtIn()} has the types that need nothing but the call itself.
 */
public final class ToolRunners {

    private final Map<String, ToolRunner> byType;

    private ToolRunners(Map<String, ToolRunner> byType) {
        this.byType = Map.copyOf(byType);
    }

    /** {@code endCall} and {@code dtmf}. */
    public static ToolRunners builtIn() {
        Map<String, ToolRunner> runners = new LinkedHashMap<>();
        runners.put("endCall", new EndCallTool());
        runners.put("dtmf", new DtmfTool());
        return new ToolRunners(runners);
    }

    /** These runners and {@code runner} for {@code type} (replacing one the type had). */
    public ToolRunners with(String type, ToolRunner runner) {
        Map<String, ToolRunner> runners = new LinkedHashMap<>(byType);
        runners.put(type, runner);
        return new ToolRunners(runners);
    }

    public Optional<ToolRunner> of(String type) {
        return Optional.ofNullable(type == null ? null : byType.get(type));
    }
}
