package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.crypto.SealedFields;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the customer's own webhook secrets sit in an assistant and in a squad: write-only like every other secret
 * (accepted, never in a public answer or a server message body; docs/architecture.md "Secrets") and sealed at rest
 * by whichever service stores them. Internal routes answer them opened, for the services that use them.
 */
public final class AssistantSecrets {

    private static final List<String> IN_ASSISTANT = List.of("serverUrlSecret", "server.secret", "model.tools.*.server.secret",
            "voice.server.secret", "transcriber.server.secret", "startSpeakingPlan.smartEndpointingPlan.server.secret");

    /** The secrets of an assistant (or of assistant overrides). */
    public static final SealedFields ASSISTANT = new SealedFields(IN_ASSISTANT);

    /** The secrets of a squad: those of every inline assistant and every member's overrides. */
    public static final SealedFields SQUAD = new SealedFields(under("members.*.assistant.", "members.*.assistantOverrides."));

    /** The secret of a stored tool ({@code /tool}). */
    public static final SealedFields TOOL = new SealedFields(List.of("server.secret"));

    private AssistantSecrets() {
    }

    /** The assistant's secret paths below each prefix (for documents that embed assistants, such as a call). */
    public static List<String> under(String... prefixes) {
        List<String> paths = new ArrayList<>();
        for (String prefix : prefixes) {
            IN_ASSISTANT.forEach(path -> paths.add(prefix + path));
        }
        return paths;
    }
}
