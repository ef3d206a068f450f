package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.local.IngressRoutes.Route;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pages the gateway serves itself (the local stack's /talk): exact paths, GET and HEAD, read at each request. */
class GatewayPageTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @TempDir
    static Path directory;

    private static Gateway gateway;
    private static Path page;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        page = directory.resolve("page.html");
        Files.writeString(page, "<!doctype html><title>one</title>");
        gateway = new Gateway(new IngressRoutes(List.of(new Route("/call", "call-service"))));
        port = gateway.listen(0);
        gateway.servePages(Map.of("/talk", page, "/missing", directory.resolve("missing.html")));
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    private static HttpResponse<String> send(String method, String path) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPageIsServedAsHtmlWithOrWithoutAQuery() throws Exception {
        for (String path : List.of("/talk", "/talk?assistantId=0193b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d")) {
            HttpResponse<String> answer = send("GET", path);
            assertEquals(200, answer.statusCode(), path);
            assertEquals("<!doctype html><title>one</title>", answer.body());
            assertEquals("text/html; charset=utf-8", answer.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("no-store", answer.headers().firstValue("Cache-Control").orElseThrow());
            assertEquals("nosniff", answer.headers().firstValue("X-Content-Type-Options").orElseThrow());
            assertTrue(answer.headers().firstValue(Gateway.REQUEST_ID).isPresent(), "a request id");
        }
        HttpResponse<String> head = send("HEAD", "/talk");
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());
        assertEquals(Long.toString(Files.size(page)), head.headers().firstValue("Content-Length").orElseThrow());
    }

    @Test
    void anEditShowsAtTheNextRequest() throws Exception {
        Path edited = directory.resolve("edited.html");
        Files.writeString(edited, "before");
        gateway.servePages(Map.of("/talk", page, "/missing", directory.resolve("missing.html"), "/edited", edited));
        assertEquals("before", send("GET", "/edited").body());
        Files.writeString(edited, "after");
        assertEquals("after", send("GET", "/edited").body());
    }

    @Test
    void otherMethodsOtherPathsAndAMissingFileAnswerInTheErrorShape() throws Exception {
        HttpResponse<String> post = send("POST", "/talk");
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
        assertEquals(new JsonObject().put("message", "POST is not allowed on /talk: it is a page (GET)")
                .put("error", "Method Not Allowed").put("statusCode", 405), new JsonObject(post.body()));

        for (String path : List.of("/talk/x", "/talks", "/Talk")) {
            HttpResponse<String> answer = send("GET", path);
            assertEquals(404, answer.statusCode(), path);
            assertEquals("Cannot GET " + path, new JsonObject(answer.body()).getString("message"));
        }

        HttpResponse<String> missing = send("GET", "/missing");
        assertEquals(404, missing.statusCode());
        JsonObject body = new JsonObject(missing.body());
        assertEquals(404, body.getInteger("statusCode"));
        assertTrue(body.getString("message").startsWith("the page /missing is not there"), body.encode());
    }
}
