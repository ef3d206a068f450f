package dev.voiceplane.local;

import dev.voiceplane.kit.http.RequestRules;
import dev.voiceplane.kit.http.WebSocketHandshakes;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketBase;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.http.WebSocketFrame;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;

/**
 * The local stand-in for the Ingress controller: routes each request by the Ingress rules and proxies it, body
 * streamed both ways, to the service on this machine; WebSocket upgrades are proxied frame by frame. Every answer
 * the gateway gives itself is in the API's error shape: unrouted paths 404, routes whose service is not running
 * 503, a request target that is not a URI 400, a request line or header block over the limit 414 or 431, and a
 * WebSocket upgrade that cannot complete (kit {@link WebSocketHandshakes}: 405, 400 or 426) before the service is
 * asked, so a refused handshake never opens the service's socket.
 */
final class Gateway {

    /** The services' request-id header; an id they would not accept from a caller is replaced (kit RequestRules). */
    static final String REQUEST_ID = RequestRules.REQUEST_ID_HEADER;
    /** Everything listens on the loopback interface only, as the services do inside a cluster. */
    static final String HOST = "localhost";

    /** Headers that belong to one connection, not to the request or response, and are never forwarded. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "host");
    /** Request headers the gateway has dealt with itself. */
    private static final Set<String> ANSWERED_HERE = Set.of("expect");

    /** A relay, not an endpoint: frames and messages as large as the services take pass through. */
    private static final int WEBSOCKET_MAX_FRAME = 16 * 1024 * 1024;
    private static final int WEBSOCKET_MAX_MESSAGE = 64 * 1024 * 1024;
    /** How a service-side socket that ended without a close is passed on to the client: "internal error". */
    private static final short LOST = 1011;
    /** Bodies up to this size (with a Content-Length) are read whole and written at once; larger ones are streamed. */
    private static final long BUFFERED_BODY = 256 * 1024;

    private final IngressRoutes routes;
    private final Vertx vertx;
    private final HttpClient client;
    private final WebSocketClient webSockets;
    private volatile Map<String, Integer> upstreams = Map.of();
    /** Pages the gateway serves itself (path to file), ahead of the Ingress rules: the local stack's /talk. */
    private volatile Map<String, Path> pages = Map.of();
    private HttpServer server;

    Gateway(IngressRoutes routes) {
        this.routes = routes;
        // Linux epoll when its native library is on the class path (as in the services): fewer system calls per request.
        // One event loop: the one HTTP server (not deployed as verticle instances) serves every connection on one
        // loop, and the client's connections follow the caller's loop. Two loops (two verticle instances, a client
        // each) measured no faster on two shared cores and used more CPU per request (BENCHMARKS.md, "The gateway
        // hop").
        this.vertx = Vertx.vertx(new VertxOptions()
                .setEventLoopPoolSize(1)
                .setWorkerPoolSize(2)
                .setPreferNativeTransport(true));
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(2_000),
                new PoolOptions().setHttp1MaxSize(64));
        this.webSockets = vertx.createWebSocketClient(new WebSocketClientOptions()
                .setConnectTimeout(2_000)
                .setMaxFrameSize(WEBSOCKET_MAX_FRAME)
                .setMaxMessageSize(WEBSOCKET_MAX_MESSAGE));
    }

    /** The network transport the gateway runs on: "epoll" (Linux, native) or "NIO" where epoll cannot load. */
    String transport() {
        return vertx.isNativeTransportEnabled() ? "epoll" : "NIO";
    }

    /** Starts listening; {@code port} 0 takes any free port. Returns the port. */
    int listen(int port) {
        // Like the Ingress controller: HTTP/1.1 only (no cleartext HTTP/2 upgrade), and "Expect: 100-continue"
        // answered here rather than passed on.
        HttpServerOptions options = new HttpServerOptions()
                .setHttp2ClearTextEnabled(false)
                .setHandle100ContinueAutomatically(true)
                .setMaxWebSocketFrameSize(WEBSOCKET_MAX_FRAME)
                .setMaxWebSocketMessageSize(WEBSOCKET_MAX_MESSAGE);
        HttpServer listening = vertx.createHttpServer(options)
                .requestHandler(this::handle)
                .invalidRequestHandler(Gateway::invalid);
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

    /**
     * From now on, a GET or HEAD of one of these exact paths is answered with the file (HTML, read at each request, so
     * an edit shows at the next reload); another method is a 405. Ahead of the Ingress rules, which route none of them.
     */
    void servePages(Map<String, Path> served) {
        pages = Map.copyOf(served);
    }

    void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private void handle(HttpServerRequest request) {
        String requestId = RequestRules.requestId(request.getHeader(REQUEST_ID));
        // The services' Vert.x router resolves "..", "." and escaped unreserved characters before matching; routing
        // on the same normalised path means /credential/../internal/... is /internal/..., and not routed. A target
        // that is not a URI is refused here, as the services would refuse it (with an empty body).
        String path;
        try {
            new URI(request.uri());
            path = RequestPaths.normalise(request.path());
        } catch (URISyntaxException | IllegalArgumentException e) {
            reply(request, requestId, 400, "request target is not a valid URI");
            return;
        }
        Path page = pages.get(path);
        if (page != null) {
            servePage(request, requestId, page);
            return;
        }
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
        if (WebSocketHandshakes.asksForUpgrade(request::getHeader)) {
            Optional<WebSocketHandshakes.Refusal> refusal = WebSocketHandshakes.refusal(request.method().name(),
                    request::getHeader);
            if (refusal.isPresent()) {
                refusal.get().headers().forEach(request.response()::putHeader);
                reply(request, requestId, refusal.get().status(), refusal.get().message());
                return;
            }
            forwardWebSocket(request, path, service.get(), port, requestId);
            return;
        }
        forward(request, path, service.get(), port, requestId);
    }

    private void servePage(HttpServerRequest request, String requestId, Path page) {
        if (request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) {
            request.response().putHeader(HttpHeaders.ALLOW, "GET, HEAD");
            reply(request, requestId, 405, request.method().name() + " is not allowed on " + request.path()
                    + ": it is a page (GET)");
            return;
        }
        vertx.fileSystem().readFile(page.toString())
                .onSuccess(html -> {
                    HttpServerResponse response = request.response()
                            .putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8")
                            .putHeader(HttpHeaders.CONTENT_LENGTH, Integer.toString(html.length()))
                            .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                            .putHeader("X-Content-Type-Options", "nosniff")
                            .putHeader("Referrer-Policy", "no-referrer")
                            .putHeader(REQUEST_ID, requestId);
                    if (request.method() == HttpMethod.HEAD) {
                        response.end();
                    } else {
                        response.end(html);
                    }
                })
                .onFailure(missing -> reply(request, requestId, 404, "the page " + request.path() + " is not there ("
                        + page + " cannot be read)"));
    }

    /** What the HTTP decoder could not read: a request line or header block over the limit, or no HTTP at all. */
    private static void invalid(HttpServerRequest request) {
        Throwable cause = request.decoderResult().cause();
        int status = cause instanceof TooLongHttpLineException ? 414
                : cause instanceof TooLongHttpHeaderException ? 431
                : 400;
        String message = switch (status) {
            case 414 -> "request line is too long";
            case 431 -> "request headers are too large";
            default -> "request is not valid HTTP";
        };
        request.response().putHeader(HttpHeaders.CONNECTION, "close");
        reply(request, RequestRules.newRequestId(), status, message);
    }

    /**
     * Opens the WebSocket to the service first, so that a service that refuses it or is not there is answered over
     * HTTP (its own answer, or a 503); then accepts the client's upgrade and relays frames both ways until either
     * side closes, passing the close code on. The handshake was checked before ({@link WebSocketHandshakes}), so
     * accepting the client's side cannot fail for what it sent. A {@code Sec-WebSocket-Protocol} the client offers
     * is not passed on: no routed service speaks a subprotocol, and the service's client here would fail a handshake
     * in which the service selects none (RFC 6455 lets the service ignore the offer); the client's side opens with
     * none selected, as the service would have answered.
     */
    private void forwardWebSocket(HttpServerRequest request, String path, String service, int port, String requestId) {
        request.pause();
        MultiMap headers = forwardedHeaders(request, requestId);
        for (String handshake : List.of("sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
                "sec-websocket-protocol", "content-length")) {
            headers.remove(handshake);
        }
        WebSocketConnectOptions upstream = new WebSocketConnectOptions()
                .setHost(HOST)
                .setPort(port)
                .setURI(request.query() == null ? path : path + "?" + request.query())
                .setHeaders(headers);
        webSockets.connect(upstream)
                .onFailure(failure -> {
                    request.resume();
                    if (failure instanceof UpgradeRejectedException refused) {
                        // The service answered, just not with an upgrade: its answer is the client's.
                        request.response().setStatusCode(refused.getStatus());
                        refused.getHeaders().forEach(header -> {
                            if (!HOP_BY_HOP.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                                request.response().headers().add(header.getKey(), header.getValue());
                            }
                        });
                        request.response().end(refused.getBody() == null ? io.vertx.core.buffer.Buffer.buffer()
                                : refused.getBody());
                        return;
                    }
                    unreachable(request, service, requestId, failure);
                })
                .onSuccess(serviceSide -> {
                    // What the service sends before the client's side is accepted waits here, not dropped.
                    serviceSide.pause();
                    request.toWebSocket()
                            .onFailure(failure -> serviceSide.close())
                            .onSuccess(clientSide -> {
                                relay(clientSide, serviceSide);
                                serviceSide.resume();
                            });
                });
    }

    private static void relay(ServerWebSocket clientSide, WebSocket serviceSide) {
        pass(clientSide, serviceSide, (short) 1000);
        pass(serviceSide, clientSide, LOST);
    }

    /**
     * Data frames from one side to the other as they come (fragments stay fragments), with back-pressure. A close is
     * passed on with its code; a side whose connection ended without a close frame is passed on as {@code lost}
     * (toward the client 1011, never a normal 1000 that would say all went well). A frame a side's decoder refuses
     * (over the relay's limit, broken framing) closes both sides with the decoder's code (1009, 1002) rather than
     * dropping the connection. Text is relayed as it came, UTF-8 or not: reading it is the service's.
     */
    private static void pass(WebSocketBase from, WebSocketBase to, short lost) {
        from.exceptionHandler(failure -> {
            if (failure instanceof CorruptedWebSocketFrameException corrupt) {
                short code = (short) corrupt.closeStatus().code();
                String reason = code == 1009 ? "frame too large" : "protocol error";
                if (!from.isClosed()) {
                    from.close(code, reason);
                }
                if (!to.isClosed()) {
                    to.close(code, reason);
                }
            }
        });
        from.frameHandler(frame -> {
            if (isData(frame) && !to.isClosed()) {
                to.writeFrame(frame);
                if (to.writeQueueFull()) {
                    from.pause();
                    to.drainHandler(drained -> from.resume());
                }
            }
        });
        from.closeHandler(closed -> {
            if (!to.isClosed()) {
                // Codes a close frame never carries (RFC 6455, 7.4.1): 1005 is a close without a code (normal), 1006
                // and 1015 a connection that ended without one (lost), as is no code at all.
                Short code = from.closeStatusCode();
                if (code == null || code == 1006 || code == 1015) {
                    to.close(lost, lost == LOST ? "the service's connection ended without a close" : "");
                } else if (code == 1005) {
                    to.close((short) 1000, "");
                } else {
                    to.close(code, from.closeReason());
                }
            }
        });
    }

    private static boolean isData(WebSocketFrame frame) {
        return frame.isText() || frame.isBinary() || frame.isContinuation();
    }

    private void forward(HttpServerRequest request, String path, String service, int port, String requestId) {
        RequestOptions upstream = new RequestOptions()
                .setMethod(request.method())
                .setHost(HOST)
                .setPort(port)
                .setURI(request.query() == null ? path : path + "?" + request.query())
                .setHeaders(forwardedHeaders(request, requestId));
        long length = knownLength(request.headers());
        Future<HttpClientResponse> answered;
        if (length == 0 && !request.headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
            answered = client.request(upstream).compose(HttpClientRequest::send);
        } else if (length > 0 && length <= BUFFERED_BODY) {
            // A small body (every API call but uploads) is read whole and sent in one write: cheaper than a pipe.
            answered = request.body().compose(body -> client.request(upstream).compose(outgoing -> outgoing.send(body)));
        } else {
            // Held back until the upstream request is open, then piped to it.
            request.pause();
            answered = client.request(upstream).compose(outgoing -> outgoing.send(request));
        }
        answered.onSuccess(answer -> relay(answer, request.response()))
                .onFailure(failure -> unreachable(request, service, requestId, failure));
    }

    /** The Content-Length of a message: 0 without one, -1 when it is not a single number (then it is streamed). */
    private static long knownLength(MultiMap headers) {
        String value = headers.get(HttpHeaders.CONTENT_LENGTH);
        if (value == null) {
            return 0;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static MultiMap forwardedHeaders(HttpServerRequest request, String requestId) {
        // Copied whole, then the connection's own headers taken out (MultiMap names are case-insensitive).
        MultiMap headers = HttpHeaders.headers().addAll(request.headers());
        for (String connectionOption : request.headers().getAll(HttpHeaders.CONNECTION)) {
            tokens(connectionOption).forEach(headers::remove);
        }
        HOP_BY_HOP.forEach(headers::remove);
        ANSWERED_HERE.forEach(headers::remove);
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
        response.headers().addAll(answer.headers());
        HOP_BY_HOP.forEach(response.headers()::remove);
        long length = answer.headers().contains(HttpHeaders.CONTENT_LENGTH) ? knownLength(answer.headers()) : -1;
        if (length >= 0 && length <= BUFFERED_BODY && !answer.headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
            // The usual small answer: head and body in one write.
            answer.body().onSuccess(response::end).onFailure(failure -> response.reset());
            return;
        }
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
