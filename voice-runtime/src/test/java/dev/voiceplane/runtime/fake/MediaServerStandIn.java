package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** The runtime's side of a media WebSocket, for the callers' own tests: records what comes, sends what it is told. */
final class MediaServerStandIn implements AutoCloseable {

    private final Vertx vertx = Vertx.vertx();
    private final HttpServer server;
    final CompletableFuture<ServerWebSocket> socket = new CompletableFuture<>();
    final CompletableFuture<Void> closed = new CompletableFuture<>();
    final List<JsonObject> texts = new CopyOnWriteArrayList<>();
    final List<byte[]> binaries = new CopyOnWriteArrayList<>();
    volatile String uri;
    volatile Consumer<JsonObject> onText = m -> { };
    volatile Consumer<byte[]> onBinary = b -> { };

    MediaServerStandIn() throws Exception {
        server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                // Upgraded from the request handler: a server with only a WebSocket handler fails its upgrades once
                // a Quarkus test ran in the same JVM (a null request handler inside Vert.x).
                .requestHandler(request -> request.toWebSocket().onSuccess(ws -> {
                    uri = ws.uri();
                    ws.textMessageHandler(text -> {
                        JsonObject json = new JsonObject(text);
                        texts.add(json);
                        onText.accept(json);
                    });
                    ws.binaryMessageHandler(buffer -> {
                        binaries.add(buffer.getBytes());
                        onBinary.accept(buffer.getBytes());
                    });
                    ws.closeHandler(v -> closed.complete(null));
                    socket.complete(ws);
                }))
                .listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    String url(String path) {
        return "ws://127.0.0.1:" + server.actualPort() + path;
    }

    ServerWebSocket ws() {
        return socket.join();
    }

    void send(JsonObject message) {
        ws().writeTextMessage(message.encode());
    }

    void sendBinary(byte[] audio) {
        ws().writeBinaryMessage(Buffer.buffer(audio));
    }

    List<JsonObject> events(String event) {
        return texts.stream().filter(m -> event.equals(m.getString("event"))).toList();
    }

    @Override
    public void close() {
        vertx.close();
    }
}
