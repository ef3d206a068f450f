package dev.voiceplane.runtime.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.provider.openai.OpenAiChat;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.PoolOptions;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How a chat stream's server-sent events are read, whatever the network does to them. */
class ServerSentEventsTest {

    private final Vertx vertx = Vertx.vertx();
    private final EventLoopHttpClients http = new EventLoopHttpClients(vertx, new HttpClientOptions(),
            new PoolOptions());

    @AfterEach
    void close() throws Exception {
        http.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aCharacterSplitBetweenTwoChunksArrivesWhole() throws Exception {
        byte[] event = ("data: {\"choices\":[{\"delta\":{\"content\":\"Café ☕ ready\"}}]}\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8);
        int inE = indexOf(event, "é".getBytes(StandardCharsets.UTF_8)) + 1;
        int inCup = indexOf(event, "☕".getBytes(StandardCharsets.UTF_8)) + 2;
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(request -> request.body().onSuccess(body -> {
                    var response = request.response().setChunked(true).putHeader("content-type", "text/event-stream");
                    // Three network chunks, cut inside the two characters and inside the line.
                    response.write(Buffer.buffer(Arrays.copyOfRange(event, 0, inE)));
                    vertx.setTimer(20, a -> {
                        response.write(Buffer.buffer(Arrays.copyOfRange(event, inE, inCup)));
                        vertx.setTimer(20, b -> response.end(Buffer.buffer(Arrays.copyOfRange(event, inCup,
                                event.length)).appendString("data: [DONE]\n\n")));
                    });
                }))
                .listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        OpenAiChat chat = new OpenAiChat(vertx, http, new ObjectMapper(), "openai", new OpenAiChat.Endpoint(
                "http://127.0.0.1:" + server.actualPort() + "/v1/chat/completions", Map.of()), 5000, 5000);
        StringBuilder text = new StringBuilder();
        CompletableFuture<String> done = new CompletableFuture<>();
        chat.stream(new ChatRequest("m", List.of(new ChatMessage("user", "Hi")), List.of(), null, null),
                new LanguageModel.Listener() {
                    @Override
                    public void text(String delta) {
                        text.append(delta);
                    }

                    @Override
                    public void done(long promptTokens, long completionTokens) {
                        done.complete(text.toString());
                    }

                    @Override
                    public void failed(ProviderError error) {
                        done.completeExceptionally(new AssertionError(error.toString()));
                    }
                });
        assertEquals("Café ☕ ready", done.get(10, TimeUnit.SECONDS));
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new IllegalArgumentException("not found");
    }
}
