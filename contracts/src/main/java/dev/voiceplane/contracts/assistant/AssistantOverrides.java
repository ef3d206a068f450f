package dev.voiceplane.contracts.assistant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Changes to an assistant for one squad member (or one call): the assistant fields plus free-form
 * {@code variableValues}.
 */
@RegisterForReflection
public class AssistantOverrides extends AssistantBody {

    /** Values for the {@code {{variables}}} of the assistant's messages; free-form, returned exactly as sent. */
    public ObjectNode variableValues;
}
