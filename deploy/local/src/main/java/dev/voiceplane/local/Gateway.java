package dev.voiceplane.local;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.impl.HttpUtils;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;

/**
 * The local stand-in for the Ingress controller: routes each request by the Ingress rules and proxies it, body
 * streamed both ways, to the service on this machine. Unrouted paths answer 404 and routes whose service is not
 * running answer 503, both in the API's error shape.
 */
final class Gateway {

    static final String REQUEST_ID = "X-Request-Id";
    /** The request ids the services accept from callers (service-kit's RequestIds); others are replaced. */
    private static final Pattern ACCEPTABLE_REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    /** Everything listens on the loopback interface only, as the services do inside a cluster. */
    static final String HOST = "localhost";

    /** Headers that belong to one connection, not to the request or response, and are never forwarded. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "host");
    /** Request headers the gateway has dealt with itself. */
    private static final Set<String> ANSWERED_HERE = Set.of("expect");

    private final IngressRoutes routes;
    private final Vertx vertx;
    private final HttpClient client;
    private volatile Map<String, Integer> upstreams = Map.of();
    private HttpServer server;

    Gateway(IngressRoutes routes) {
        this.routes = routes;
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2).setWorkerPoolSize(2));
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(2_000),
                new PoolOptions().setHttp1MaxSize(64));
    }

    /** Starts listening; {@code port} 0 takes any free port. Returns the port. */
    int listen(int port) {
        // Like the Ingress controller: HTTP/1.1 only (no cleartext HTTP/2 upgrade), and "Expect: 100-continue"
        // answered here rather than passed on.
        HttpServerOptions options = new HttpServerOptions()
                .setHttp2ClearTextEnabled(false)
                .setHandle100ContinueAutomatically(true);
        HttpServer listening = vertx.createHttpServer(options).requestHandler(this::handle);
        try {
            server = listening.listen(port, HOST).toCompletionStage().toCompletableFuture().join();
        } catch (CompletionException e) {
            throw new StackFailure("the gateway cannot listen on port " + port + ": " + e.getCause().getMessage(), e);
        }
        return server.actualPort();
    }

    /** Stops listening, keeping Vert.x for another {@link #listen}. */
    void unlisten() {
        server.close().toCompletionStage().toCompletableFuture().join();
    }

    /** From now on, requests for these services (name to port) are forwarded; the rest answer 503. */
    void forwardTo(Map<String, Integer> running) {
        upstreams = Map.copyOf(running);
    }

    void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private void handle(HttpServerRequest request) {
        String requestId = Optional.ofNullable(request.getHeader(REQUEST_ID))
                .filter(offered -> ACCEPTABLE_REQUEST_ID.matcher(offered).matches())
                .orElseGet(() -> UUID.randomUUID().toString());
        // The services' Vert.x router resolves "..", "." and escaped unreserved characters before matching; routing
        // on the same normalised path means /credential/../internal/... is /internal/..., and not routed.
        String path = HttpUtils.normalizePath(request.path());
        Optional<String> service = routes.serviceFor(path);
        if (service.isEmpty()) {
            reply(request, requestId, 404, "Cannot " + request.method().name() + " " + request.path());
            return;
        }
        Integer port = upstreams.get(service.get());
        if (port == null) {
            reply(request, requestId, 503, service.get() + " is not running");
            return;
        }
        forward(request, path, service.get(), port, requestId);
    }

    private void forward(HttpServerRequest request, String path, String service, int port, String requestId) {
        boolean hasBody = request.headers().contains(HttpHeaders.CONTENT_LENGTH)
                || request.headers().contains(HttpHeaders.TRANSFER_ENCODING);
        if (hasBody) {
            // Held back until the upstream request is open, then piped to it.
            request.pause();
        }
        RequestOptions upstream = new RequestOptions()
                .setMethod(request.method())
                .setHost(HOST)
                .setPort(port)
                .setURI(request.query() == null ? path : path + "?" + request.query())
                .setHeaders(forwardedHeaders(request, requestId));
        client.request(upstream)
                .compose(outgoing -> hasBody ? outgoing.send(request) : outgoing.send())
                .onSuccess(answer -> relay(answer, request.response()))
                .onFailure(failure -> unreachable(request, service, requestId, failure));
    }

    private static MultiMap forwardedHeaders(HttpServerRequest request, String requestId) {
        Set<String> dropped = new HashSet<>(HOP_BY_HOP);
        dropped.addAll(ANSWERED_HERE);
        request.headers().getAll(HttpHeaders.CONNECTION).forEach(value -> dropped.addAll(tokens(value)));
        MultiMap headers = HttpHeaders.headers();
        request.headers().forEach(header -> {
            if (!dropped.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                headers.add(header.getKey(), header.getValue());
            }
        });
        String client = request.remoteAddress().hostAddress();
        String forwardedFor = request.getHeader("X-Forwarded-For");
        headers.set("X-Forwarded-For", forwardedFor == null ? client : forwardedFor + ", " + client);
        headers.set("X-Forwarded-Proto", request.scheme());
        String host = request.getHeader(HttpHeaders.HOST);
        if (host != null) {
            headers.set("X-Forwarded-Host", host);
        }
        headers.set(REQUEST_ID, requestId);
        return headers;
    }

    private static void relay(HttpClientResponse answer, HttpServerResponse response) {
        response.setStatusCode(answer.statusCode()).setStatusMessage(answer.statusMessage());
        answer.headers().forEach(header -> {
            if (!HOP_BY_HOP.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                response.headers().add(header.getKey(), header.getValue());
            }
        });
        // A body cut off half-way cannot be turned into an error response any more: drop the connection instead.
        response.send(answer).onFailure(failure -> response.reset());
    }

    private static void unreachable(HttpServerRequest request, String service, String requestId, Throwable failure) {
        System.out.println("[gateway] " + request.method() + " " + request.path() + ": " + service + " did not answer ("
                + failure.getMessage() + ")");
        if (request.response().headWritten()) {
            request.response().reset();
            return;
        }
        if (!request.isEnded()) {
            // Read and drop the body that was held back for the service, so the connection can serve the next request.
            request.resume();
        }
        reply(request, requestId, 503, service + " is not running");
    }

    private static void reply(HttpServerRequest request, String requestId, int status, String message) {
        String body = new JsonObject()
                .put("message", message)
                .put("error", HttpResponseStatus.valueOf(status).reasonPhrase())
                .put("statusCode", status)
                .encode();
        request.response()
                .setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(REQUEST_ID, requestId)
                .end(body);
    }

    private static Set<String> tokens(String headerValue) {
        Set<String> tokens = new HashSet<>();
        for (String token : headerValue.split(",")) {
            tokens.add(token.strip().toLowerCase(Locale.ROOT));
        }
        return tokens;
    }
}
