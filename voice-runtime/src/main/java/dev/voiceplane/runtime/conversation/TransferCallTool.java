package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code transferCall}: not run yet, so not offered to the model (a transfer needs the carrier's redirect, see
 * docs/voice-runtime.md "Tools"); its runner takes this one's place in {@code media.ToolRegistry}.
 */
public final class TransferCallTool implements ToolRunner {

    @Override
    public ObjectNode function(JsonNode tool) {
        return null;
    }

    @Override
    public void run(Call call) {
        call.fail("transfers are not supported by this runtime");
    }
}
