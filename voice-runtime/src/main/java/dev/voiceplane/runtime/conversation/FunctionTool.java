package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.client.ToolCallClient;
import org.jboss.logging.Logger;

/**
 * {@code function}: the call goes to the tool's server through call-service (the {@code tool-calls} server message,
 * see {@link ToolCallClient}), and the server's result is what the model is told. An {@code async: true} tool is
 * sent the same way but not waited for: the model is told at once that it was started. call-service turns every
 * failure at the tool's server into an error for the model; call-service itself failing or not answering within the
 * tool's deadline (its server's {@code timeoutSeconds} and a margin, else {@link #UNBOUNDED_MILLIS}) is one too.
 */
public final class FunctionTool implements ToolRunner {

    private static final Logger LOG = Logger.getLogger(FunctionTool.class);
    /** call-service bounds every attempt by the target's deadline (at most 300 s); this only catches a lost answer. */
    static final long UNBOUNDED_MILLIS = 305_000;
    static final long DEFAULT_DEADLINE_MILLIS = 20_000;
    static final long MARGIN_MILLIS = 5_000;
    static final String STARTED = "The tool was started. It runs on its own; its result will not come back in this call.";

    private final ToolCallClient client;

    public FunctionTool(ToolCallClient client) {
        this.client = client;
    }

    @Override
    public ObjectNode function(JsonNode tool) {
        JsonNode name = tool.path("function").path("name");
        if (!name.isTextual() || name.asText().isBlank()) {
            return null;
        }
        ObjectNode parameters = JsonNodeFactory.instance.objectNode().put("type", "object");
        parameters.putObject("properties");
        return ToolRunner.declared(tool, name.asText(), null, parameters);
    }

    @Override
    public void run(Call call) {
        var sent = client.send(call.plan().orgId(), call.plan().callId(), call.call(), deadlineMillis(call.tool()));
        if (call.tool().path("async").asBoolean(false)) {
            sent.onComplete(done -> {
                if (done.failed() || done.result().error() != null) {
                    LOG.infof("call %s: the async tool %s failed: %s", call.plan().callId(), call.call().name(),
                            done.failed() ? done.cause().getMessage() : done.result().error());
                }
            });
            call.answer(STARTED);
            return;
        }
        sent.onComplete(done -> {
            if (done.failed()) {
                LOG.infof("call %s: the tool %s could not be called: %s", call.plan().callId(), call.call().name(),
                        done.cause().getMessage());
                call.fail("the tool could not be called (" + done.cause().getMessage() + ")");
            } else if (done.result().error() != null) {
                call.fail(done.result().error());
            } else {
                call.answer(done.result().result() == null ? "" : done.result().result());
            }
        });
    }

    /** The tool's own server deadline and a margin when it has one; else the longest any server may take. */
    static long deadlineMillis(JsonNode tool) {
        JsonNode server = tool.path("server");
        if (server.path("timeoutSeconds").isNumber()) {
            return Math.round(server.path("timeoutSeconds").asDouble() * 1000) + MARGIN_MILLIS;
        }
        return server.path("url").isTextual() ? DEFAULT_DEADLINE_MILLIS + MARGIN_MILLIS : UNBOUNDED_MILLIS;
    }
}
