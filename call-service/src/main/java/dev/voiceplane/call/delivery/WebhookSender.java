package dev.voiceplane.call.delivery;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends one signed webhook to a customer URL: the host is resolved and checked by the {@link AddressGuard}, the
 * connection goes to the checked address while the Host header and TLS SNI / hostname verification keep the
 * URL's name (Vert.x {@code RequestOptions.setServer}), redirects are not followed, the whole attempt has one
 * deadline, and at most {@code maxResponseBytes} of the answer are read. Call it from a virtual thread: it blocks.
 */
public final class WebhookSender {

    /** What became of one attempt. */
    public enum Kind {
        /** 2xx. */
        DELIVERED,
        /** Timeout, connection failure, 429 or 5xx: worth another attempt. */
        RETRYABLE,
        /** Any other answer (3xx, 4xx), a refused target or an unusable URL: another attempt would end the same. */
        FAILED
    }

    /** One attempt's result; {@code body} is the answer when {@code keepBody} asked for it. */
    public record Result(Kind kind, Integer statusCode, String error, long latencyMillis,
            Optional<Duration> retryAfter, byte[] body) {
    }

    private final Vertx vertx;
    private final HttpClient client;
    private final AddressGuard guard;
    private final int maxResponseBytes;

    public WebhookSender(Vertx vertx, AddressGuard guard, int concurrency, int maxResponseBytes) {
        this.vertx = vertx;
        this.guard = guard;
        this.maxResponseBytes = maxResponseBytes;
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setMaxPoolSize(Math.max(1, concurrency))
                .setKeepAlive(true)
                .setVerifyHost(true)
                .setMaxRedirects(0));
    }

    public void close() {
        client.close();
    }

    /**
     * POSTs {@code body} to {@code url} with {@code headers} within {@code deadline}. Interrupting the calling
     * thread abandons the attempt (the result is then not recorded by the caller).
     */
    public Result send(String url, Map<String, String> headers, String body, Duration deadline, boolean keepBody)
            throws InterruptedException {
        long started = System.nanoTime();
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return failed(started, Kind.FAILED, null, "the server URL is not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            return failed(started, Kind.FAILED, null, "the server URL is not an http(s) URL");
        }
        boolean ssl = scheme.equals("https");
        int port = uri.getPort() > 0 ? uri.getPort() : ssl ? 443 : 80;
        InetAddress address;
        try {
            address = guard.resolve(uri.getHost());
        } catch (AddressGuard.Refused e) {
            return failed(started, Kind.FAILED, null, e.getMessage());
        } catch (UnknownHostException e) {
            return failed(started, Kind.RETRYABLE, null, "the server URL's host " + uri.getHost() + " does not resolve");
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        String host = uri.getHost();
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.POST)
                .setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()))
                .setHost(host)
                .setPort(port)
                .setSsl(ssl)
                .setURI(path)
                .setFollowRedirects(false)
                .setConnectTimeout(deadline.toMillis())
                .setIdleTimeout(deadline.toMillis());
        options.putHeader("Content-Type", "application/json");
        options.putHeader("User-Agent", "voiceplane-webhooks");
        headers.forEach(options::putHeader);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);

        AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
        Promise<Answer> answer = Promise.promise();
        // On one event-loop context, so the answer's handlers are set in the same turn the answer arrives in
        // (set from another thread they may come after its end).
        vertx.getOrCreateContext().runOnContext(start -> client.request(options)
                .compose(request -> {
                    sent.set(request);
                    return request.send(Buffer.buffer(bytes));
                })
                .onSuccess(response -> {
                    try {
                        read(response, keepBody, answer);
                    } catch (RuntimeException e) {
                        answer.tryFail(e);
                    }
                })
                .onFailure(answer::tryFail));
        try {
            Answer got = answer.future().toCompletionStage().toCompletableFuture()
                    .get(deadline.toMillis(), TimeUnit.MILLISECONDS);
            return classify(started, got);
        } catch (TimeoutException e) {
            reset(sent);
            return failed(started, Kind.RETRYABLE, null, "no answer within " + deadline.toMillis() + " ms");
        } catch (InterruptedException e) {
            reset(sent);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
            return failed(started, Kind.RETRYABLE, null, "connection failed: " + message);
        }
    }

    private record Answer(int status, String retryAfter, byte[] body) {
    }

    /** Reads at most {@code maxResponseBytes} of the answer; a longer one is cut off with its connection. */
    private void read(HttpClientResponse response, boolean keepBody, Promise<Answer> answer) {
        Buffer kept = Buffer.buffer();
        int[] seen = {0};
        response.exceptionHandler(answer::tryFail);
        response.handler(chunk -> {
            seen[0] += chunk.length();
            if (keepBody && kept.length() < maxResponseBytes) {
                kept.appendBuffer(chunk);
            }
            if (seen[0] > maxResponseBytes) {
                answer.tryComplete(new Answer(response.statusCode(), response.getHeader("Retry-After"), null));
                response.request().reset();
            }
        });
        response.endHandler(done -> answer.tryComplete(new Answer(response.statusCode(),
                response.getHeader("Retry-After"), keepBody ? kept.getBytes() : null)));
    }

    private static void reset(AtomicReference<HttpClientRequest> sent) {
        HttpClientRequest request = sent.get();
        if (request != null) {
            request.reset();
        }
    }

    private static Result classify(long started, Answer answer) {
        int status = answer.status();
        long latency = elapsed(started);
        if (status >= 200 && status < 300) {
            return new Result(Kind.DELIVERED, status, null, latency, Optional.empty(), answer.body());
        }
        Optional<Duration> retryAfter = RetrySchedule.retryAfter(answer.retryAfter(), Instant.now());
        if (status == 429 || status >= 500) {
            return new Result(Kind.RETRYABLE, status, "answered " + status, latency, retryAfter, answer.body());
        }
        return new Result(Kind.FAILED, status, "answered " + status + (status / 100 == 3 ? " (redirects are not followed)"
                : ""), latency, Optional.empty(), answer.body());
    }

    private static Result failed(long started, Kind kind, Integer status, String error) {
        return new Result(kind, status, error, elapsed(started), Optional.empty(), null);
    }

    private static long elapsed(long started) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    }

    /**
     * The customer's custom headers (their server object's {@code headers}), then the Standard Webhooks headers and
     * {@code x-vapi-secret}, which a custom header cannot replace (validation refuses those names; this keeps it so).
     */
    public static Map<String, String> headers(Map<String, String> custom, String messageId, long timestamp,
            String signature, String vapiSecret) {
        if (custom == null || custom.isEmpty()) {
            return headers(messageId, timestamp, signature, vapiSecret);
        }
        Map<String, String> all = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        custom.forEach((name, value) -> {
            if (!dev.voiceplane.contracts.assistant.ServerHeadersValidator.RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
                all.put(name, value);
            }
        });
        all.putAll(headers(messageId, timestamp, signature, vapiSecret));
        return all;
    }

    /** The Standard Webhooks headers plus the customer's {@code x-vapi-secret} when the target has one. */
    public static Map<String, String> headers(String messageId, long timestamp, String signature, String vapiSecret) {
        return vapiSecret == null || vapiSecret.isEmpty()
                ? Map.of(Signatures.ID, messageId, Signatures.TIMESTAMP, Long.toString(timestamp),
                        Signatures.SIGNATURE, signature)
                : Map.of(Signatures.ID, messageId, Signatures.TIMESTAMP, Long.toString(timestamp),
                        Signatures.SIGNATURE, signature, "x-vapi-secret", vapiSecret);
    }

}
