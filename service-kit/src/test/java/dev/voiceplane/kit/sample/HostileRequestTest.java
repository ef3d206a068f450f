package dev.voiceplane.kit.sample;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.hamcrest.Matchers.empty;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.RawHttp;
import dev.voiceplane.kit.testing.RawHttp.Answer;
import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Requests that well-behaved clients never send, sent over a raw socket: every one is answered with a 4xx in the
 * error shape, never a 5xx, never an empty body, and none of them stores anything.
 */
@QuarkusTest
class HostileRequestTest {

    private static final String AUTH = "Authorization: " + TestKeys.bearer(TestKeys.KEY_A);

    private static void assertErrorShape(Answer answer, int status) {
        assertEquals(status, answer.status(), answer.body());
        JsonObject error = new JsonObject(answer.body());
        assertEquals(status, error.getInteger("statusCode"), answer.body());
        assertTrue(error.getString("error") != null && !error.getString("error").isBlank(), answer.body());
        assertTrue(error.getValue("message") != null, answer.body());
        assertTrue(answer.header("Content-Type").startsWith("application/json"), answer.header("Content-Type"));
        assertTrue(answer.header("X-Request-Id") != null, "X-Request-Id on " + answer);
    }

    private static Answer post(String contentType, byte[] body) {
        return RawHttp.send("POST /note HTTP/1.1\r\nHost: localhost\r\n" + AUTH + "\r\nContent-Type: " + contentType
                + "\r\nContent-Length: " + body.length, body);
    }

    @Test
    void anUnparsableContentTypeIs415() {
        for (String contentType : List.of("garbage", ";", "application/json, text/plain", "/", "application/",
                "application/json; charset", "application/json; =x", "a b/c")) {
            Answer answer = post(contentType, "{\"text\":\"ct\"}".getBytes(UTF_8));
            assertErrorShape(answer, 415);
        }
        TestClients.orgA().queryParam("text", "ct").when().get("/note").then().statusCode(200).body("$", empty());
    }

    @Test
    void escapesThatAreNotUtf8AreA400InTheErrorShape() {
        for (String target : List.of("/note/%C0%AF", "/note/%FF", "/note?text=%E0%80", "/note?limit=1&text=%ED%A0%80",
                "/note?%C3=1")) {
            Answer answer = RawHttp.send("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n" + AUTH);
            assertErrorShape(answer, 400);
        }
    }

    /**
     * Targets that are not URIs: answered by the kit ({@code RequestTargets}, with Quarkus's own check handed over to
     * it by {@code TargetCheckHandover}) in the error shape, directly, not only behind the gateway.
     */
    @Test
    void targetsThatAreNotUrisAre400InTheErrorShape() {
        for (String target : List.of("/note/{x}", "/note/%zz", "/note/%u0000", "/note/%", "/note?limit=%",
                "/note?limit=%zz", "/no{te}", "/note/a\u0001b", "/note?text=a\u007fb", "/note/[1]", "/note#x",
                "/note?text=\u00e9", "/note/a\\b", "/note?text=a|b", "/note/a\"b", "/note/<x>", "/note?text=`")) {
            Answer answer = RawHttp.send("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n" + AUTH);
            assertErrorShape(answer, 400);
        }
        // The same targets escaped are fine: the check refuses the form, not the content.
        TestClients.orgA().when().get("/note?text=%7Bx%7D%20%7C").then().statusCode(200);
    }

    /**
     * A raw space or tab splits the request line, so the request is not HTTP at all: Netty's decoder refuses it and
     * Vert.x answers its own empty 400 and closes, before Quarkus or the kit see a request (Vert.x's
     * invalid-request handler is not reachable from a Quarkus application). Gateways and Ingress controllers refuse
     * such a line themselves. It is still a 400, never a 5xx, and nothing is stored.
     */
    @Test
    void aRawSpaceInTheTargetIsRefusedByTheHttpLayer() {
        for (String target : List.of("/note/a b", "/note?text=a b", "/note/a\tb")) {
            Answer answer = RawHttp.send("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n" + AUTH);
            assertEquals(400, answer.status(), target);
        }
    }

    @Test
    void aHeaderOrAPathOverTheLimitIsAnsweredInTheErrorShape() {
        Answer header = RawHttp.send("GET /note HTTP/1.1\r\nHost: localhost\r\n" + AUTH + "\r\nX-Big: " + "a".repeat(40_000));
        assertErrorShape(header, 431);
        Answer path = RawHttp.send("GET /note/" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: localhost\r\n" + AUTH);
        assertErrorShape(path, 414);
        Answer oldClient = RawHttp.send("GET /note/" + "a".repeat(10_000) + " HTTP/1.0\r\nHost: localhost\r\n" + AUTH);
        assertErrorShape(oldClient, 414);
    }

    @Test
    void invalidUtf8IncludingOverlongEncodingsIs400AndStoresNothing() {
        byte[][] bodies = {
            bytes("{\"text\":\"", new byte[] {(byte) 0xc0, (byte) 0xaf, (byte) 0xc0, (byte) 0xae, (byte) 0xc0, (byte) 0xae}, "\"}"),
            bytes("{\"text\":\"", new byte[] {(byte) 0xe0, (byte) 0x80, (byte) 0xaf}, "\"}"),
            bytes("{\"text\":\"", new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, "\"}"),
            bytes("{\"text\":\"", new byte[] {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, "\"}"),
            bytes("{\"text\":\"", new byte[] {(byte) 0xff}, "\"}"),
            bytes("{\"text\":\"a", new byte[] {(byte) 0xc3}, "\"}"),
        };
        for (byte[] body : bodies) {
            assertErrorShape(post("application/json", body), 400);
        }
        // A wildcard Content-Type is read as JSON, so it is screened as JSON (found by the fuzz suite).
        for (String wildcard : List.of("*/*", "application/*", "APPLICATION/JSON", "Application/Json")) {
            assertErrorShape(post(wildcard, "{\"text\":\"utf16\"}".getBytes(java.nio.charset.StandardCharsets.UTF_16)), 400);
        }
        TestClients.orgA().when().get("/note?text=/..").then().statusCode(200).body("$", empty());
        // Valid multi-byte UTF-8 is of course still text.
        Answer fine = post("application/json", "{\"text\":\"é✓😀\"}".getBytes(UTF_8));
        assertEquals(201, fine.status(), fine.body());
        assertEquals("é✓😀", new JsonObject(fine.body()).getString("text"));
    }

    @Test
    void onlyTheCanonicalUuidFormIsAnId() {
        String id = new JsonObject(post("application/json", "{\"text\":\"canonical\"}".getBytes(UTF_8)).body())
                .getString("id");
        TestClients.orgA().when().get("/note/" + id).then().statusCode(200);
        String[] parts = id.split("-");
        List<String> aliases = List.of(
                id.toUpperCase(),
                Long.toHexString(Long.parseLong(parts[0], 16)) + "-" + parts[1] + "-" + parts[2] + "-" + parts[3] + "-0"
                        + parts[4].substring(1),
                "1-2-3-4-0000000000000000000000000005",
                "{" + id.substring(1, 35) + "}",
                "+" + id.substring(1),
                id.replace("-", "").substring(0, 32) + "abcd");
        for (String alias : aliases) {
            if (alias.equals(id)) {
                continue;
            }
            Answer answer = RawHttp.send("GET /note/" + alias.replace("{", "%7B").replace("}", "%7D")
                    + " HTTP/1.1\r\nHost: localhost\r\n" + AUTH);
            assertErrorShape(answer, 404);
        }
    }

    @Test
    void aBodyThatStopsArrivingIs408AndStoresNothing() {
        byte[] partial = "{\"text\":\"trun".getBytes(UTF_8);
        Answer answer = RawHttp.send("POST /note HTTP/1.1\r\nHost: localhost\r\n" + AUTH
                + "\r\nContent-Type: application/json\r\nContent-Length: 100", partial);
        assertErrorShape(answer, 408);
        TestClients.orgA().when().get("/note?text=trun").then().statusCode(200).body("$", empty());
    }

    private static byte[] bytes(String before, byte[] middle, String after) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(before.getBytes(UTF_8));
        out.writeBytes(middle);
        out.writeBytes(after.getBytes(UTF_8));
        return out.toByteArray();
    }
}
