package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code endCall}: the call ends {@code assistant-ended-call} once the goodbye has played: what the model said with
 * the call, and the tool's {@code request-start} message when it has one (both are queued before the runner runs).
 */
final class EndCallTool implements ToolRunner {

    static final String REASON = "assistant-ended-call";

    @Override
    public ObjectNode function(JsonNode tool) {
        ObjectNode parameters = JsonNodeFactory.instance.objectNode().put("type", "object");
        parameters.putObject("properties");
        return ToolRunner.declared(tool, "endCall",
                "Ends the call. Use it once the conversation is over, after saying goodbye.", parameters);
    }

    @Override
    public void run(Call call) {
        call.endCall(REASON);
        call.answer("The call is ending.");
    }
}
