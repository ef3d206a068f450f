package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.client.ControlPlane;
import dev.voiceplane.contracts.call.RuntimeEvent;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.UUID;
import java.util.function.BinaryOperator;
import java.util.function.LongFunction;
import org.jboss.logging.Logger;

/**
 * The call's events to call-service, numbered by the runtime's own sequence and sent one at a time in that order
 * from a worker thread (never on the call's event loop). call-service records each sequence once, so an event that
 * failed is sent again as it was: a few attempts spaced out, then it is logged and given up.
 */
public final class EventReporter implements Conversation.EventSink {

    private static final Logger LOG = Logger.getLogger(EventReporter.class);
    private static final int ATTEMPTS = 4;
    private static final long RETRY_MILLIS = 500;

    private record Pending(RuntimeEvent event, Promise<Void> sent, String key) {
    }

    private final ControlPlane control;
    private final Context context;
    private final String orgId;
    private final UUID callId;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private long sequence;
    private boolean sending;

    public EventReporter(ControlPlane control, Context context, String orgId, UUID callId) {
        this.control = control;
        this.context = context;
        this.orgId = orgId;
        this.callId = callId;
    }

    @Override
    public Future<Void> report(LongFunction<RuntimeEvent> event) {
        Promise<Void> sent = Promise.promise();
        queue.add(new Pending(event.apply(sequence++), sent, null));
        next();
        return sent.future();
    }

    /**
     * Reports an event that may be merged into the last one waiting, when that one has the same {@code key} and is not
     * being sent yet: {@code merge(waiting, newer)} takes its place, under its sequence. Only the last one waiting,
     * so the order of everything reported stays as it was (live messages: partial transcripts, model output).
     * Whether it was merged.
     */
    @Override
    public boolean reportMerging(String key, LongFunction<RuntimeEvent> event, BinaryOperator<RuntimeEvent> merge) {
        Pending last = queue.peekLast();
        boolean waiting = last != null && !(sending && queue.size() == 1);
        if (waiting && key.equals(last.key())) {
            queue.pollLast();
            queue.add(new Pending(merge.apply(last.event(), event.apply(last.event().sequence())), last.sent(), key));
            return true;
        }
        queue.add(new Pending(event.apply(sequence++), Promise.promise(), key));
        next();
        return false;
    }

    Future<Void> message(Map<String, Object> message) {
        return report(n -> RuntimeEvent.message(n, message));
    }

    private void next() {
        if (sending || queue.isEmpty()) {
            return;
        }
        sending = true;
        attempt(queue.peek(), 1);
    }

    private void attempt(Pending pending, int attempt) {
        context.<Void>executeBlocking(() -> {
            control.report(orgId, callId, pending.event());
            return null;
        }, false).onComplete(result -> {
            if (result.failed() && attempt < ATTEMPTS) {
                context.owner().setTimer(RETRY_MILLIS * attempt, id -> attempt(pending, attempt + 1));
                return;
            }
            if (result.failed()) {
                LOG.errorf("call %s: event %d (%s) could not be reported: %s", callId, pending.event().sequence(),
                        pending.event().type(), result.cause().getMessage());
            }
            queue.poll();
            sending = false;
            pending.sent().complete();
            next();
        });
    }
}
