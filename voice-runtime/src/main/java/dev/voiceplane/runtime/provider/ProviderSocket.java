package dev.voiceplane.runtime.provider;

import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.ArrayDeque;
import java.util.function.Supplier;

/**
 * One WebSocket to a provider for one call (a transcriber's stream, a voice's socket): the socket twin of
 * {@link ProviderExchange}. It connects within a deadline (an upgrade never answered has failed), holds frames sent
 * before it is open (the oldest dropped past a bound: a few seconds of audio), keeps an idle stream alive, and ends
 * once: by {@link #close} (the call no longer needs it) or by {@link #fail} (the listener hears why, typed). A close
 * the runtime did not ask for is a failure whose kind the close code says. Everything runs on the call's context.
 */
public abstract class ProviderSocket {

    private final Context context;
    private final String provider;
    private final int maxPending;
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private WebSocket socket;
    private boolean closed;
    private long connectTimer = -1;
    private long keepAliveTimer = -1;
    private long lastSentAt;

    protected ProviderSocket(Context context, String provider, int maxPending) {
        this.context = context;
        this.provider = provider;
        this.maxPending = maxPending;
    }

    /** Frames the provider sent as text (JSON). */
    protected abstract void text(String message);

    /** Frames the provider sent as binary (audio); ignored unless overridden. */
    protected void binary(Buffer frame) {
    }

    /** The stream ended for {@code error}: tell the listener (called once). */
    protected abstract void failed(ProviderError error);

    /** Called once the socket is open and what was held is sent. */
    protected void opened() {
    }

    /** The frame that ends the stream politely before the close ({@code CloseStream}, ...); none by default. */
    protected String goodbye() {
        return null;
    }

    protected final String provider() {
        return provider;
    }

    protected final Context context() {
        return context;
    }

    /** Connects, failing as {@code TIMEOUT} if the upgrade is not answered within {@code deadlineMillis}. */
    protected final void connect(WebSocketClient client, WebSocketConnectOptions options, long deadlineMillis) {
        connectTimer = context.owner().setTimer(Math.max(1, deadlineMillis), id -> {
            connectTimer = -1;
            if (socket == null) {
                fail(ProviderError.timeout(provider, "did not open the stream within " + deadlineMillis + " ms"));
            }
        });
        client.connect(options).onComplete(result -> {
            if (result.failed()) {
                fail(refusal(result.cause()));
            } else {
                opened(result.result());
            }
        });
    }

    private ProviderError refusal(Throwable cause) {
        if (cause instanceof UpgradeRejectedException rejected) {
            return ProviderError.ofStatus(provider, rejected.getStatus(), "refused the stream (" + rejected.getStatus()
                    + ")");
        }
        return ProviderError.unavailable(provider, "connection failed: " + cause.getMessage());
    }

    private void opened(WebSocket webSocket) {
        if (closed) {
            webSocket.close();
            return;
        }
        socket = webSocket;
        cancel(connectTimer);
        connectTimer = -1;
        socket.textMessageHandler(message -> {
            if (!closed) {
                text(message);
            }
        });
        socket.binaryMessageHandler(frame -> {
            if (!closed) {
                binary(frame);
            }
        });
        socket.exceptionHandler(failure -> fail(ProviderError.unavailable(provider, "stream failed: "
                + failure.getMessage())));
        socket.closeHandler(ignored -> {
            if (!closed) {
                fail(closedBy(socket.closeStatusCode() == null ? 1006 : socket.closeStatusCode(), socket.closeReason()));
            }
        });
        lastSentAt = System.nanoTime();
        while (!pending.isEmpty() && !closed) {
            Object frame = pending.poll();
            if (frame instanceof Buffer buffer) {
                socket.writeBinaryMessage(buffer);
            } else {
                socket.writeTextMessage((String) frame);
            }
        }
        if (!closed) {
            opened();
        }
    }

    /**
     * The provider closed the stream with {@code code}: 1008 and 4001/4003 are refused keys, 1013 and 4029 too many
     * requests, 1002/1003/1007/1009 a protocol error, anything else an unavailable provider. A vendor whose codes mean
     * otherwise overrides this.
     */
    protected ProviderError closedBy(int code, String reason) {
        String detail = "closed the stream (" + code + (reason == null || reason.isBlank() ? "" : " " + reason) + ")";
        return switch (code) {
            case 1008, 4001, 4003 -> ProviderError.auth(provider, detail);
            case 1013, 4029 -> new ProviderError(provider, ProviderError.Kind.RATE_LIMITED, detail);
            case 1002, 1003, 1007, 1009 -> ProviderError.protocol(provider, detail);
            default -> ProviderError.unavailable(provider, detail);
        };
    }

    /** Whether the socket is open (frames go out at once). */
    protected final boolean isOpen() {
        return socket != null && !closed;
    }

    protected final boolean isClosed() {
        return closed;
    }

    /** Sends a binary frame, or holds it until the socket is open. */
    protected final void sendBinary(Buffer frame) {
        send(frame);
    }

    /** Sends a text frame, or holds it until the socket is open. */
    protected final void sendText(String frame) {
        send(frame);
    }

    private void send(Object frame) {
        if (closed) {
            return;
        }
        if (socket == null) {
            if (pending.size() == maxPending) {
                pending.poll();
            }
            pending.add(frame);
            return;
        }
        lastSentAt = System.nanoTime();
        if (frame instanceof Buffer buffer) {
            socket.writeBinaryMessage(buffer);
        } else {
            socket.writeTextMessage((String) frame);
        }
    }

    /** Every {@code periodMillis}, sends {@code message} if nothing else was sent for that long. */
    protected final void keepAlive(long periodMillis, Supplier<String> message) {
        keepAliveTimer = context.owner().setPeriodic(periodMillis, id -> {
            if (isOpen() && System.nanoTime() - lastSentAt > periodMillis * 1_000_000L) {
                send(message.get());
            }
        });
    }

    /** Ends the stream (once): the goodbye frame if any, then the close; nothing reaches the listener after. */
    public void close() {
        if (closed) {
            return;
        }
        String goodbye = socket == null ? null : goodbye();
        closed = true;
        cancel(connectTimer);
        cancel(keepAliveTimer);
        pending.clear();
        if (socket != null) {
            if (goodbye != null) {
                socket.writeTextMessage(goodbye);
            }
            socket.close();
        }
    }

    /** Fails the stream (once): closes it and tells the listener why. */
    protected final void fail(ProviderError error) {
        if (closed) {
            return;
        }
        close();
        failed(error);
    }

    protected final void cancel(long timer) {
        if (timer >= 0) {
            context.owner().cancelTimer(timer);
        }
    }
}
