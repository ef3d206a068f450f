package dev.voiceplane.runtime.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.voiceplane.contracts.call.ToolCallResults;
import dev.voiceplane.contracts.call.ToolCallsRequest;
import dev.voiceplane.kit.auth.Authentication;
import dev.voiceplane.runtime.provider.ToolCall;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The runtime's function-tool calls to call-service ({@code POST /internal/call/{id}/runtime/tool-calls},
 * {@code CallServiceApi.toolCalls}), which sends them to the tool's server. Not through the peer policy of
 * {@link ControlPlane}: a tool acts, so it is asked once (no retries), and it may take as long as its server's
 * deadline (up to 300 s) where the policy gives 2 s. Non-blocking: the answer comes back on the calling context,
 * no worker thread waits for a tool.
 */
@ApplicationScoped
public class ToolCallClient {

    private final HttpClient http;
    private final ObjectMapper json;
    private final String baseUrl;
    private final String authorization;

    public ToolCallClient(Vertx vertx, ObjectMapper json,
            @ConfigProperty(name = "quarkus.rest-client.call-service.url") String baseUrl,
            @ConfigProperty(name = "voice.internal-token") Optional<String> token) {
        this.json = json;
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.authorization = "Bearer " + token.orElse("");
        this.http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setConnectTimeout(5000)
                .setTcpNoDelay(true), new PoolOptions().setHttp1MaxSize(1000));
    }

    void stop(@Observes ShutdownEvent stopping) {
        http.close();
    }

    /** Asks call-service to send {@code call} to its tool's server; fails when there is no answer in time. */
    public Future<ToolCallResults.Result> send(String orgId, UUID callId, ToolCall call, long deadlineMillis) {
        String body;
        try {
            body = json.writeValueAsString(new ToolCallsRequest(List.of(new ToolCallsRequest.ToolCall(call.id(),
                    "function", new ToolCallsRequest.Function(call.name(), TextNode.valueOf(call.arguments()))))));
        } catch (Exception e) {
            return Future.failedFuture(e);
        }
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                .setAbsoluteURI(baseUrl + "/internal/call/" + callId + "/runtime/tool-calls")
                .putHeader("Content-Type", "application/json")
                .putHeader("Authorization", authorization)
                .putHeader(Authentication.ORG_HEADER, orgId)
                .setTimeout(deadlineMillis);
        return http.request(options)
                .compose(request -> request.send(Buffer.buffer(body)))
                .compose(response -> response.body().compose(answer -> {
                    if (response.statusCode() / 100 != 2) {
                        return Future.failedFuture("call-service answered " + response.statusCode() + ": "
                                + abbreviate(answer.toString()));
                    }
                    try {
                        ToolCallResults results = json.readValue(answer.getBytes(), ToolCallResults.class);
                        return results.results() == null || results.results().isEmpty()
                                ? Future.failedFuture("call-service answered no result")
                                : Future.succeededFuture(results.results().get(0));
                    } catch (Exception e) {
                        return Future.failedFuture("call-service answered no results: " + e.getMessage());
                    }
                }));
    }

    private static String abbreviate(String text) {
        return text.length() > 300 ? text.substring(0, 300) + "…" : text;
    }
}
