package dev.voiceplane.kit.sample;

import static io.restassured.RestAssured.given;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.kit.testing.RawHttp;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Authentication comes before every other check (issue 24, item 6: an upload without a key answered 415): a request
 * without a valid key, or without the service token on {@code /internal/}, is a 401 in the error shape whatever else
 * is wrong with it. Signed routes and Quarkus's own endpoints keep working as before; with a key, the other checks
 * answer as they did.
 */
@QuarkusTest
class AuthenticationFirstTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What else is wrong with a request: each one answered 400, 404, 405, 413 or 415 before it was authenticated. */
    private static final List<String> HOSTILE = List.of(
            "POST /note HTTP/1.1\r\nHost: x\r\nContent-Type: garbage\r\nContent-Length: 2|{}",
            "POST /note HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 2|{}",
            "POST /note HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 5|--b--",
            "POST /note HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5|{\"a\":",
            "POST /note HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 999999999|{}",
            "POST /note HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: 2|{}",
            "GET /note/%zz HTTP/1.1\r\nHost: x|",
            "GET /note?limit=%E0%80 HTTP/1.1\r\nHost: x|",
            "GET /note/{x} HTTP/1.1\r\nHost: x|",
            "DELETE /note HTTP/1.1\r\nHost: x|",
            "GET /note HTTP/1.1\r\nHost: x\r\nAccept: text/html|",
            "POST /hook/unsigned HTTP/1.1\r\nHost: x\r\nContent-Type: ;\r\nContent-Length: 1|x");

    private static JsonNode unauthorized(RawHttp.Answer answer, String request) {
        assertEquals(401, answer.status(), request + " -> " + answer.body());
        assertThat(answer.header("Content-Type"), containsString("application/json"));
        try {
            JsonNode error = JSON.readTree(answer.body());
            assertEquals(401, error.path("statusCode").asInt(), answer.body());
            assertEquals("Unauthorized", error.path("error").asText(), answer.body());
            assertEquals(3, error.size(), answer.body());
            return error;
        } catch (IOException e) {
            throw new AssertionError(answer.body(), e);
        }
    }

    private static RawHttp.Answer send(String request, String authorization) {
        int bar = request.indexOf('|');
        String head = request.substring(0, bar);
        if (authorization != null) {
            head = head + "\r\nAuthorization: " + authorization;
        }
        return RawHttp.send(head, request.substring(bar + 1).getBytes(UTF_8));
    }

    @Test
    void aPublicRequestWithoutAValidKeyIs401WhateverElseIsWrong() {
        for (String request : HOSTILE) {
            for (String authorization : new String[] {null, "Bearer wrong", "Basic eDp5", TestKeys.KEY_A,
                    TestKeys.bearer(TestKeys.INTERNAL_TOKEN)}) {
                JsonNode error = unauthorized(send(request, authorization), request + " with " + authorization);
                assertThat(error.path("message").asText(), containsString("Invalid Key"));
            }
        }
    }

    @Test
    void anInternalRequestWithoutTheServiceTokenIs401WhateverElseIsWrong() {
        for (String request : HOSTILE) {
            String internal = request.replaceFirst(" /", " /internal/");
            for (String authorization : new String[] {null, "Bearer wrong", TestKeys.bearer(TestKeys.KEY_A)}) {
                JsonNode error = unauthorized(send(internal, authorization), internal + " with " + authorization);
                assertThat(error.path("message").asText(), containsString("service token"));
            }
        }
    }

    /**
     * A refused request without a body leaves its connection open, as any other answer does: a client that sends a
     * wrong key (or none) and then a good one needs no new connection, and a client retrying with a wrong key does
     * not cost the server a connection per attempt. A refused request with a body still closes it (its body was not
     * read; below, and {@link #aPublicRequestWithoutAValidKeyIs401WhateverElseIsWrong}).
     */
    @Test
    void aRefusedRequestWithoutABodyKeepsItsConnection() {
        String wrong = "GET /note HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\n\r\n";
        String none = "GET /internal/note HTTP/1.1\r\nHost: x\r\n\r\n";
        String good = "GET /note HTTP/1.1\r\nHost: x\r\nAuthorization: " + TestKeys.bearer(TestKeys.KEY_A)
                + "\r\nConnection: close\r\n\r\n";
        String answers = RawHttp.exchange(wrong + none + good);
        assertEquals(List.of("401", "401", "200"), statuses(answers), answers);
        String firstHead = answers.substring(0, answers.indexOf("\r\n\r\n")).toLowerCase(Locale.ROOT);
        assertThat(firstHead, not(containsString("connection: close")));

        String withBody = "POST /note HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2"
                + "\r\n\r\n{}";
        assertEquals(List.of("401"), statuses(RawHttp.exchange(withBody + good)),
                "a refused request with a body closes its connection");
    }

    private static List<String> statuses(String answers) {
        return Pattern.compile("HTTP/1\\.1 (\\d{3}) ").matcher(answers).results().map(found -> found.group(1))
                .toList();
    }

    /** A path that is no route is not authenticated by the kit: 404 with or without a key. */
    @Test
    void aPathThatIsNoRouteIs404() {
        assertEquals(404, RawHttp.send("GET /no-such-route HTTP/1.1\r\nHost: x").status());
        assertEquals(404, RawHttp.send("GET /no-such-route HTTP/1.1\r\nHost: x\r\nAuthorization: "
                + TestKeys.bearer(TestKeys.KEY_A)).status());
    }

    @Test
    void withAValidKeyTheOtherChecksAnswerAsBefore() {
        String key = "\r\nAuthorization: " + TestKeys.bearer(TestKeys.KEY_A);
        assertEquals(415, RawHttp.send("POST /note HTTP/1.1\r\nHost: x\r\nContent-Type: garbage\r\nContent-Length: 2"
                + key, "{}".getBytes(UTF_8)).status());
        assertEquals(413, RawHttp.send("POST /note HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: 999999999" + key, "{}".getBytes(UTF_8)).status());
        assertEquals(400, RawHttp.send("GET /note/%zz HTTP/1.1\r\nHost: x" + key).status());
        assertEquals(404, RawHttp.send("GET /no-such-route HTTP/1.1\r\nHost: x" + key).status());
    }

    @Test
    void signedRoutesAndQuarkusEndpointsTakeNoKey() {
        byte[] body = "{\"event\":\"ping\"}".getBytes(UTF_8);
        given().header("X-Test-Signature", TestSignature.sign(body)).body(body).contentType("application/json")
                .when().post("/hook/signed")
                .then().statusCode(200).body("body", equalTo("{\"event\":\"ping\"}"));
        // A signed route's hostile request meets the checks it met before, then its verifier.
        assertEquals(415, RawHttp.send("POST /hook/signed HTTP/1.1\r\nHost: x\r\nContent-Type: ;\r\nContent-Length: 1",
                "x".getBytes(UTF_8)).status());
        given().header("Content-Type", "application/json").body("{}").when().post("/hook/signed")
                .then().statusCode(403);
        given().when().get("/q/health/ready").then().statusCode(200);
    }
}
