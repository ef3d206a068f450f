package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.audio.Dtmf;

/**
 * {@code dtmf}: presses keys in-band, the tones played into the call in its own format after what is queued (a
 * phone menu on the far end hears them as it hears the assistant). The model is told which keys were sent and is
 * asked again; keys that are not keypad keys are refused to the model, nothing is played.
 */
final class DtmfTool implements ToolRunner {

    @Override
    public ObjectNode function(JsonNode tool) {
        ObjectNode parameters = JsonNodeFactory.instance.objectNode().put("type", "object");
        parameters.putObject("properties").putObject("digits").put("type", "string")
                .put("description", "The keys to press, in order: 0-9, *, # and A-D.");
        parameters.putArray("required").add("digits");
        return ToolRunner.declared(tool, "dtmf",
                "Presses keys on the phone keypad (DTMF tones), for example to choose an option of a phone menu.",
                parameters);
    }

    @Override
    public void run(Call call) {
        String digits = call.arguments().path("digits").asText("").replaceAll("\\s", "");
        if (!Dtmf.valid(digits)) {
            call.fail("No tones were sent: \"digits\" must be keypad keys (0-9, *, #, A-D), got \"" + digits + "\".");
            return;
        }
        call.play(Dtmf.tones(digits, call.format()));
        call.answer("Sent the keypad tones " + digits + ".");
    }
}
