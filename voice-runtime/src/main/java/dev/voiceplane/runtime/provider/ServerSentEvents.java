package dev.voiceplane.runtime.provider;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;

/**
 * One streamed completion read as server-sent events: OpenAI's, Anthropic's and Gemini's chat streams. The request is
 * sent ({@link #open}); a 2xx answer is cut into lines and the payload of each {@code data:} line goes to
 * {@link #data} (the other fields, {@code event:} among them, are not needed: each of these vendors' payloads names
 * its own type), then the end of the answer to {@link #ended}; any other status is read to its end and failed as
 * {@link #refusal} says. Lines are cut on bytes and decoded whole, so a character split between two network chunks
 * arrives intact. A line of more than 1 MB fails the stream.
 */
public abstract class ServerSentEvents extends ProviderExchange {

    private static final int MAX_LINE = 1_000_000;

    private Buffer pending = Buffer.buffer();

    protected ServerSentEvents(Vertx vertx, String provider) {
        super(vertx, provider);
    }

    /** A POST of JSON asking for an event stream, which fails when the stream goes silent for {@code idleMillis}. */
    public static RequestOptions post(String url, long idleMillis) {
        return new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url)
                .putHeader("Content-Type", "application/json")
                .putHeader("Accept", "text/event-stream")
                .setIdleTimeout(idleMillis);
    }

    /** The payload of one {@code data:} line, trimmed; called until the stream is finished or cancelled. */
    protected abstract void data(String data);

    /** The answer ended (and the stream is not finished yet): complete it, or fail it if it ended too early. */
    protected abstract void ended();

    /** How an answer of another status than 2xx fails; {@code body} is null when it could not be read. */
    protected ProviderError refusal(int status, String body) {
        return ProviderError.ofStatus(provider(), status, "answered " + status + (body == null ? "" : ": "
                + abbreviate(body)));
    }

    /** Sends the request and reads its answer as described above. */
    public final void open(EventLoopHttpClients http, RequestOptions options, Buffer payload) {
        send(http, options, payload, response -> {
            if (response.statusCode() / 100 != 2) {
                // Read to its end and not reset: the ended answer's keep-alive connection is back in the pool,
                // and a reset would close it under another call's request (found by SoakTest, 2026-11-26).
                response.body().onComplete(text -> {
                    answerEnded();
                    fail(refusal(response.statusCode(), text.succeeded() ? text.result().toString() : null));
                });
                return;
            }
            response.handler(this::chunk);
            response.exceptionHandler(failure -> fail(ProviderError.unavailable(provider(), "stream failed: "
                    + failure.getMessage())));
            response.endHandler(ignored -> {
                // Ended: the connection may already serve another request, so nothing may reset it now.
                answerEnded();
                if (!over()) {
                    ended();
                }
            });
        });
    }

    /** The answer ended: its connection may already serve another request, so nothing may reset it now. */
    private void answerEnded() {
        request = null;
    }

    private boolean over() {
        return finished || cancelled;
    }

    private void chunk(Buffer buffer) {
        if (over()) {
            return;
        }
        pending.appendBuffer(buffer);
        int start = 0;
        for (int i = 0; i < pending.length(); i++) {
            if (pending.getByte(i) != '\n') {
                continue;
            }
            String line = pending.getString(start, i, StandardCharsets.UTF_8.name()).trim();
            start = i + 1;
            if (line.startsWith("data:")) {
                data(line.substring(5).trim());
                if (over()) {
                    return;
                }
            }
        }
        pending = start == 0 ? pending : pending.getBuffer(start, pending.length());
        if (pending.length() > MAX_LINE) {
            fail(ProviderError.protocol(provider(), "an event of more than 1 MB"));
        }
    }

    /** A vendor's answer shortened for a log line. */
    public static String abbreviate(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "…" : text;
    }
}
