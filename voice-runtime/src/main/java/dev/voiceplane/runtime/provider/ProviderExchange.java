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
public abstract class ProviderExchange {

    private final Vertx vertx;
    private final String provider;
    /** The request once opened; set back to null by a subclass once its answer has ended (see {@link #fail}). */
    protected HttpClientRequest request;
    private long deadline = -1;
    protected boolean finished;
    protected boolean cancelled;

    protected ProviderExchange(Vertx vertx, String provider) {
        this.vertx = vertx;
        this.provider = provider;
    }

    /** Tells the exchange's listener that it failed; called once, by {@link #fail}. */
    protected abstract void failed(ProviderError error);

    protected final String provider() {
        return provider;
    }

    /** Fails as {@code TIMEOUT} with {@code detail} unless {@link #stopDeadline} is called within {@code millis}. */
    public final void armDeadline(long millis, String detail) {
        deadline = vertx.setTimer(millis, id -> {
            deadline = -1;
            fail(ProviderError.timeout(provider, detail));
        });
    }

    public final void stopDeadline() {
        if (deadline >= 0) {
            vertx.cancelTimer(deadline);
            deadline = -1;
        }
    }

    /** Opens the request on the calling event loop's client and sends {@code payload}; its answer goes to {@code answered}. */
    public final void send(EventLoopHttpClients http, RequestOptions options, Buffer payload,
            Handler<HttpClientResponse> answered) {
        http.current().request(options).onComplete(opened -> {
            if (opened.failed()) {
                fail(ProviderError.unavailable(provider, "request failed: " + opened.cause().getMessage()));
                return;
            }
            request = opened.result();
            // A cancelled request is reset on purpose; without a handler Vert.x logs every reset as an error.
            request.exceptionHandler(failure -> fail(ProviderError.unavailable(provider, "request failed: "
                    + failure.getMessage())));
            if (cancelled || finished) {
                request.reset();
                return;
            }
            request.send(payload).onComplete(sent -> {
                if (sent.failed()) {
                    fail(ProviderError.unavailable(provider, "request failed: " + sent.cause().getMessage()));
                    return;
                }
                answered.handle(sent.result());
            });
        });
    }

    /** Marks the exchange finished: true if it was not over yet, and the caller now tells its listener how. */
    protected final boolean finish() {
        if (finished || cancelled) {
            return false;
        }
        finished = true;
        stopDeadline();
        return true;
    }

    /** Fails the exchange (once), resetting a request still open. */
    public final void fail(ProviderError error) {
        if (!finish()) {
            return;
        }
        if (request != null) {
            request.reset();
        }
        failed(error);
    }

    /** The call no longer wants the answer (barge-in, hang-up): nothing more reaches the listener. */
    public final void cancel() {
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
