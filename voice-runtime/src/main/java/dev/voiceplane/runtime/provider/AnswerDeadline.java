package dev.voiceplane.runtime.provider;

import io.vertx.core.Context;

/**
 * A provider that must answer a request within a deadline (a transcriber asked for the final words of a turn, a
 * stream that must greet its client): {@link #expect} starts waiting unless already waiting, {@link #answered} stops
 * it, and {@code expired} runs on the call's context when nothing came within the deadline of the oldest unanswered
 * request. One timer at most, re-armed only when needed.
 */
public final class AnswerDeadline {

    private final Context context;
    private final long millis;
    private final Runnable expired;
    private long since = -1;
    private long timer = -1;

    public AnswerDeadline(Context context, long millis, Runnable expired) {
        this.context = context;
        this.millis = Math.max(1, millis);
        this.expired = expired;
    }

    /** A request was sent: an answer must come within the deadline (of the oldest request still unanswered). */
    public void expect() {
        if (since < 0) {
            since = System.nanoTime();
        }
        if (timer < 0) {
            arm(millis);
        }
    }

    /** Something came from the provider: nothing is awaited any more. */
    public void answered() {
        since = -1;
    }

    public boolean waiting() {
        return since >= 0;
    }

    /** How long it has waited, in milliseconds (0 when it is not waiting). */
    public long waitedMillis() {
        return since < 0 ? 0 : (System.nanoTime() - since) / 1_000_000;
    }

    public long millis() {
        return millis;
    }

    public void cancel() {
        since = -1;
        if (timer >= 0) {
            context.owner().cancelTimer(timer);
            timer = -1;
        }
    }

    private void arm(long delay) {
        timer = context.owner().setTimer(Math.max(1, delay), id -> {
            timer = -1;
            if (since < 0) {
                return;
            }
            long waited = waitedMillis();
            if (waited >= millis) {
                since = -1;
                expired.run();
            } else {
                arm(millis - waited);
            }
        });
    }
}
