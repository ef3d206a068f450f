package dev.voiceplane.runtime.provider;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;

/**
 * One streamed HTTP request to a provider ({@link HttpVoice}'s speech, {@link OpenAiChat}'s completion): a deadline
 * for the first answer, then over once, by finishing (done or failed) or by the call cancelling it. Everything runs on
 * the calling call's context, like the answer's handlers, so its state needs no lock.
 */
abstract class ProviderExchange {

    private final Vertx vertx;
    /** The request once opened; set back to null by a subclass once its answer has ended (see {@link #fail}). */
    HttpClientRequest request;
    private long deadline = -1;
    boolean finished;
    boolean cancelled;

    ProviderExchange(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Tells the exchange's listener that it failed; called once, by {@link #fail}. */
    abstract void failed(String reason);

    /** Fails with {@code reason} unless {@link #stopDeadline} is called within {@code millis}. */
    final void armDeadline(long millis, String reason) {
        deadline = vertx.setTimer(millis, id -> {
            deadline = -1;
            fail(reason);
        });
    }

    final void stopDeadline() {
        if (deadline >= 0) {
            vertx.cancelTimer(deadline);
            deadline = -1;
        }
    }

    /** Opens the request on the calling event loop's client and sends {@code payload}; its answer goes to {@code answered}. */
    final void send(EventLoopHttpClients http, RequestOptions options, Buffer payload,
            Handler<HttpClientResponse> answered) {
        http.current().request(options).onComplete(opened -> {
            if (opened.failed()) {
                fail("request failed: " + opened.cause().getMessage());
                return;
            }
            request = opened.result();
            // A cancelled request is reset on purpose; without a handler Vert.x logs every reset as an error.
            request.exceptionHandler(failure -> fail("request failed: " + failure.getMessage()));
            if (cancelled || finished) {
                request.reset();
                return;
            }
            request.send(payload).onComplete(sent -> {
                if (sent.failed()) {
                    fail("request failed: " + sent.cause().getMessage());
                    return;
                }
                answered.handle(sent.result());
            });
        });
    }

    /** Marks the exchange finished: true if it was not over yet, and the caller now tells its listener how. */
    final boolean finish() {
        if (finished || cancelled) {
            return false;
        }
        finished = true;
        stopDeadline();
        return true;
    }

    /** Fails the exchange (once), resetting a request still open. */
    final void fail(String reason) {
        if (!finish()) {
            return;
        }
        if (request != null) {
            request.reset();
        }
        failed(reason);
    }

    /** The call no longer wants the answer (barge-in, hang-up): nothing more reaches the listener. */
    final void cancel() {
        if (finished || cancelled) {
            return;
        }
        cancelled = true;
        stopDeadline();
        if (request != null) {
            request.reset();
        }
    }
}
