package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.ToolCall;
import io.vertx.core.Context;

/**
 * Runs the tools of one {@code type} (a tool's {@code type}: {@code function}, {@code endCall}, {@code dtmf},
 * {@code transferCall}, ...). Registered in {@link ToolRunners}; a tool whose type has no runner is not offered to
 * the model. A runner is shared by every call: what belongs to one call comes with its {@link Call}.
 */
public interface ToolRunner {

    /**
     * The function the model is offered for {@code tool} ({@code {name, description, parameters}} of OpenAI's
     * {@code tools} items); null not to offer it (a tool this runner cannot run as configured).
     */
    ObjectNode function(JsonNode tool);

    /**
     * Runs one call of the model. Called on the call's context, after the tool's {@code request-start} message was
     * queued to be spoken; the runner answers exactly once ({@link Call#answer} or {@link Call#fail}), from any
     * thread, now or later. Anything slow (a request) runs off the call's context.
     */
    void run(Call call);

    /** One call of a tool, and what a runner may do in the call meanwhile. */
    interface Call {
        CallPlan plan();

        /** The tool as configured (inline in the assistant or frozen from {@code toolIds}). */
        JsonNode tool();

        /** The model's call: its id, the function's name, its arguments as written. */
        ToolCall call();

        /** The arguments as JSON; an empty object when the model wrote none or no JSON object. */
        JsonNode arguments();

        /** The call's context (the conversation's actor); the methods below may be called from any thread. */
        Context context();

        AudioFormat format();

        /** False once the turn the tool belongs to is over (interrupted, the call ended): its work is moot. */
        boolean live();

        /** Speaks {@code text} in the turn, after what is queued. */
        void say(String text);

        /** Plays {@code audio} (in {@link #format()}) in the turn, after what is queued. */
        void play(byte[] audio);

        /**
         * Ends the call with {@code reason} once what is queued has played; the model is not asked again after this
         * turn's tools.
         */
        void endCall(String reason);

        /** The tool's result for the model; the tool's {@code request-complete} message is spoken. */
        void answer(String result);

        /** The tool failed: {@code reason} goes to the model; the tool's {@code request-failed} message is spoken. */
        void fail(String reason);
    }

    /**
     * The function of {@code tool} with defaults: the tool's own {@code function.name}, {@code description} and
     * {@code parameters} where given, else {@code name}, {@code description} and {@code parameters} here.
     */
    static ObjectNode declared(JsonNode tool, String name, String description, ObjectNode parameters) {
        ObjectNode function = parameters.objectNode();
        JsonNode own = tool.path("function");
        function.put("name", own.path("name").isTextual() ? own.path("name").asText() : name);
        if (own.path("description").isTextual()) {
            function.put("description", own.path("description").asText());
        } else if (description != null) {
            function.put("description", description);
        }
        function.set("parameters", own.path("parameters").isObject() ? own.get("parameters").deepCopy() : parameters);
        return function;
    }
}
