package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ToolCall;
import dev.voiceplane.runtime.provider.ToolSpec;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * One call's tools (docs/voice-runtime.md, "Tools"): which are offered to the model, and what happens when the model
 * calls them. The calls of one answer are a batch: each is run by its type's {@link ToolRunner}; the tool's
 * {@code messages} are spoken around it ({@code request-start} before, {@code request-response-delayed} after its
 * {@code timingMilliseconds} without an answer, {@code request-complete} or {@code request-failed} after); once every
 * call is answered, the model's calls and their results join the history together (the model's API wants each
 * call followed by its result) and the model is asked again, or the call ends when a tool ended it.
 *
 * <p>A batch cut short (the caller interrupted, the call ended) gets a result for every call still out ("no result:
 * ...") at once, so the history stays one the model accepts; an answer coming later is dropped. All of it runs on
 * the call's context.
 */
public final class Tools {

    private static final Logger LOG = Logger.getLogger(Tools.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Rounds of tool calls in one turn before the model is asked once more without tools (a model looping). */
    static final int MAX_ROUNDS = 5;
    static final long DEFAULT_DELAYED_MILLIS = 1_000;

    /** What the conversation lends the tools: a turn is the reply whose model called them. */
    interface Host {
        /** Whether {@code turn} is still the conversation's current reply and the call runs. */
        boolean current(Turn turn);

        void say(Turn turn, String text);

        void play(Turn turn, byte[] audio);

        /** The batch is answered: the model is asked again ({@code endReason} null) or the turn ends the call. */
        void proceed(Turn turn, String endReason);

        void remember(ChatMessage message);
    }

    private record Offered(JsonNode tool, ToolRunner runner) {
    }

    private final CallPlan plan;
    private final Host host;
    private final Context context;
    private final Vertx vertx;
    private final AudioFormat format;
    private final Map<String, Offered> byName = new LinkedHashMap<>();
    private final List<ToolSpec> offered = new ArrayList<>();
    private Turn roundsTurn;
    private int rounds;

    Tools(CallPlan plan, ToolRunners runners, Host host, Context context, AudioFormat format) {
        this.plan = plan;
        this.host = host;
        this.context = context;
        this.vertx = context.owner();
        this.format = format;
        for (JsonNode tool : plan.tools()) {
            String type = tool.path("type").asText(null);
            ToolRunner runner = runners.of(type).orElse(null);
            ObjectNode function = runner == null ? null : runner.function(tool);
            if (function == null || !function.path("name").isTextual()) {
                LOG.infof("call %s: a tool of type %s is not offered to the model (this runtime cannot run it)",
                        plan.callId(), type);
                continue;
            }
            String name = function.path("name").asText();
            if (byName.putIfAbsent(name, new Offered(tool, runner)) != null) {
                LOG.infof("call %s: a second tool named %s is not offered to the model", plan.callId(), name);
                continue;
            }
            JsonNode parameters = function.path("parameters");
            offered.add(new ToolSpec(name, function.path("description").isTextual()
                    ? function.path("description").asText() : null, parameters.isObject() ? parameters : null));
        }
    }

    /** The tools offered to the model for {@code turn}: none once the turn has had {@link #MAX_ROUNDS} rounds. */
    List<ToolSpec> offered(Turn turn) {
        return turn == roundsTurn && rounds >= MAX_ROUNDS ? List.of() : offered;
    }

    /**
     * The model called {@code calls} in {@code turn}: runs them. What cancels the batch is handed to {@code cancel}
     * first, before any runner runs: a batch answered at once asks the model again, whose own cancel then stays.
     */
    void called(Turn turn, List<ToolCall> calls, java.util.function.Consumer<Runnable> cancel) {
        if (turn != roundsTurn) {
            roundsTurn = turn;
            rounds = 0;
        }
        rounds++;
        Batch batch = new Batch(turn, calls);
        cancel.accept(batch::cancel);
        for (int i = 0; i < calls.size(); i++) {
            batch.start(i);
        }
        batch.maybeResolve();
    }

    /** The calls of one answer of the model. */
    private final class Batch {
        final Turn turn;
        final List<ToolCall> calls;
        final String[] results;
        final List<Long> timers = new ArrayList<>();
        String endReason;
        boolean resolved;

        Batch(Turn turn, List<ToolCall> calls) {
            this.turn = turn;
            this.calls = calls;
            this.results = new String[calls.size()];
        }

        void start(int index) {
            ToolCall call = calls.get(index);
            Offered offered = byName.get(call.name());
            if (offered == null) {
                results[index] = "Error: there is no tool named \"" + call.name() + "\".";
                return;
            }
            JsonNode arguments = arguments(call.arguments());
            CallOfTool running = new CallOfTool(this, index, offered.tool(), arguments);
            message(offered.tool(), "request-start", arguments).ifPresent(text -> host.say(turn, text));
            JsonNode delayed = pick(offered.tool(), "request-response-delayed", arguments);
            if (delayed != null && delayed.path("content").isTextual()) {
                long after = delayed.path("timingMilliseconds").isNumber()
                        ? Math.max(0, delayed.path("timingMilliseconds").asLong()) : DEFAULT_DELAYED_MILLIS;
                String text = delayed.path("content").asText();
                long timer = vertx.setTimer(Math.max(1, after), id -> {
                    if (!resolved && results[index] == null && host.current(turn)) {
                        host.say(turn, text);
                    }
                });
                running.delayedTimer = timer;
                timers.add(timer);
            }
            try {
                offered.runner().run(running);
            } catch (RuntimeException e) {
                LOG.warnf(e, "call %s: the tool %s failed", plan.callId(), call.name());
                running.fail("the tool failed: " + e);
            }
        }

        /** On the call's context. */
        void answered(CallOfTool running, String result, boolean ok) {
            if (resolved || results[running.index] != null) {
                return;
            }
            results[running.index] = result == null ? "" : result;
            if (running.delayedTimer >= 0) {
                vertx.cancelTimer(running.delayedTimer);
            }
            if (host.current(turn)) {
                message(running.tool, ok ? "request-complete" : "request-failed", running.arguments)
                        .ifPresent(text -> host.say(turn, text));
            }
            maybeResolve();
        }

        void maybeResolve() {
            if (resolved) {
                return;
            }
            for (String result : results) {
                if (result == null) {
                    return;
                }
            }
            resolved = true;
            remember();
            if (host.current(turn)) {
                host.proceed(turn, endReason);
            }
        }

        void cancel() {
            if (resolved) {
                return;
            }
            resolved = true;
            timers.forEach(vertx::cancelTimer);
            for (int i = 0; i < results.length; i++) {
                if (results[i] == null) {
                    results[i] = "No result: the turn ended (the caller spoke or the call ended) before the tool"
                            + " answered.";
                }
            }
            remember();
        }

        private void remember() {
            host.remember(ChatMessage.toolCalls(calls));
            for (int i = 0; i < calls.size(); i++) {
                host.remember(ChatMessage.toolResult(calls.get(i).id(), results[i]));
            }
        }
    }

    /** One running call, as its runner sees it; any thread may use it, the work is moved onto the call's context. */
    private final class CallOfTool implements ToolRunner.Call {
        final Batch batch;
        final int index;
        final JsonNode tool;
        final JsonNode arguments;
        long delayedTimer = -1;

        CallOfTool(Batch batch, int index, JsonNode tool, JsonNode arguments) {
            this.batch = batch;
            this.index = index;
            this.tool = tool;
            this.arguments = arguments;
        }

        @Override
        public CallPlan plan() {
            return plan;
        }

        @Override
        public JsonNode tool() {
            return tool;
        }

        @Override
        public ToolCall call() {
            return batch.calls.get(index);
        }

        @Override
        public JsonNode arguments() {
            return arguments;
        }

        @Override
        public Context context() {
            return context;
        }

        @Override
        public AudioFormat format() {
            return format;
        }

        @Override
        public boolean live() {
            return !batch.resolved;
        }

        @Override
        public void say(String text) {
            onContext(() -> {
                if (!batch.resolved && host.current(batch.turn) && text != null && !text.isBlank()) {
                    host.say(batch.turn, text);
                }
            });
        }

        @Override
        public void play(byte[] audio) {
            onContext(() -> {
                if (!batch.resolved && host.current(batch.turn)) {
                    host.play(batch.turn, audio);
                }
            });
        }

        @Override
        public void endCall(String reason) {
            onContext(() -> {
                if (!batch.resolved) {
                    batch.endReason = Objects.requireNonNull(reason);
                }
            });
        }

        @Override
        public void answer(String result) {
            onContext(() -> batch.answered(this, result, true));
        }

        @Override
        public void fail(String reason) {
            onContext(() -> batch.answered(this, "Error: " + reason, false));
        }
    }

    private void onContext(Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(ignored -> action.run());
        }
    }

    /** The model's arguments as an object; {} when they are not a JSON object. */
    static JsonNode arguments(String written) {
        try {
            JsonNode parsed = JSON.readTree(written == null || written.isBlank() ? "{}" : written);
            return parsed != null && parsed.isObject() ? parsed : JSON.createObjectNode();
        } catch (Exception e) {
            return JSON.createObjectNode();
        }
    }

    private static java.util.Optional<String> message(JsonNode tool, String type, JsonNode arguments) {
        JsonNode message = pick(tool, type, arguments);
        return message != null && message.path("content").isTextual() && !message.path("content").asText().isBlank()
                ? java.util.Optional.of(message.path("content").asText()) : java.util.Optional.empty();
    }

    /**
     * The tool's message of {@code type} for these arguments: the first whose {@code conditions} all hold, a message
     * with conditions before one without (a conditional message is the specific case of the general one).
     */
    static JsonNode pick(JsonNode tool, String type, JsonNode arguments) {
        JsonNode fallback = null;
        for (JsonNode message : tool.path("messages")) {
            if (!type.equals(message.path("type").asText())) {
                continue;
            }
            JsonNode conditions = message.path("conditions");
            if (!conditions.isArray() || conditions.isEmpty()) {
                if (fallback == null) {
                    fallback = message;
                }
                continue;
            }
            boolean holds = true;
            for (JsonNode condition : conditions) {
                holds &= holds(condition, arguments);
            }
            if (holds) {
                return message;
            }
        }
        return fallback;
    }

    /** {@code {param, operator, value}}: the argument named {@code param} (dots reach into objects) against value. */
    static boolean holds(JsonNode condition, JsonNode arguments) {
        JsonNode actual = arguments;
        for (String part : condition.path("param").asText("").split("\\.")) {
            actual = actual.path(part);
        }
        JsonNode expected = condition.path("value");
        if (actual.isMissingNode()) {
            return "neq".equals(condition.path("operator").asText());
        }
        int compared;
        if (actual.isNumber() && expected.isNumber()) {
            compared = actual.decimalValue().compareTo(expected.decimalValue());
        } else if (actual.isValueNode() && expected.isValueNode()) {
            String left = actual.asText();
            String right = expected.asText();
            compared = isNumber(left) && isNumber(right)
                    ? new java.math.BigDecimal(left).compareTo(new java.math.BigDecimal(right)) : left.compareTo(right);
        } else {
            compared = actual.equals(expected) ? 0 : 1;
        }
        return switch (condition.path("operator").asText()) {
            case "eq" -> compared == 0;
            case "neq" -> compared != 0;
            case "gt" -> compared > 0;
            case "gte" -> compared >= 0;
            case "lt" -> compared < 0;
            case "lte" -> compared <= 0;
            default -> false;
        };
    }

    private static boolean isNumber(String text) {
        try {
            new java.math.BigDecimal(text);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
