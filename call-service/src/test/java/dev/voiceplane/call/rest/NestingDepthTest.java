package dev.voiceplane.call.rest;

import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.json.JsonConventions;
import dev.voiceplane.kit.json.JsonLimits;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One depth rule for every JSON body (issue 24, item 4: a 999-deep metadata or inline assistant answered 500, and its
 * server message could not be written): a body nested deeper than {@link JsonLimits#MAX_DEPTH} is a 400 naming the
 * rule on every body route; a body exactly at the limit is accepted, reads back by id and in the list, and is
 * embedded in its server message, as is a stored assistant at its own limit.
 */
@QuarkusTest
class NestingDepthTest {

    private static final ObjectMapper JSON = JsonConventions.apply(new ObjectMapper());
    private static final String TOO_DEEP = "request body is nested too deeply: objects and arrays may be nested at most "
            + JsonLimits.MAX_DEPTH + " levels within one another";
    private static final String INLINE = "{\"name\":\"inline\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"}}";

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    /** Objects nested {@code depth} levels deep: {@code {"d":{"d":1}}} is 2. */
    static String nested(int depth) {
        return "{\"d\":".repeat(depth - 1) + "{\"d\":1}" + "}".repeat(depth - 1);
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new AssertionError(json, e);
        }
    }

    @Test
    void aCallAtTheLimitIsAcceptedReadsBackAndIsEmbeddedInItsServerMessage() throws Exception {
        int limit = JsonLimits.MAX_DEPTH;
        // The call's metadata sits one level in, the inline assistant's two: both reach the limit exactly.
        String body = "{\"assistant\":{\"name\":\"inline\",\"metadata\":" + nested(limit - 2) + "},\"metadata\":"
                + nested(limit - 1) + "}";
        String id = orgA().body(body).when().post("/call/web").then().statusCode(201).extract().path("id");

        JsonNode call = tree(orgA().when().get("/call/" + id).then().statusCode(200).extract().asString());
        assertEquals(tree(nested(limit - 1)), call.get("metadata"));
        assertEquals(tree(nested(limit - 2)), call.get("assistant").get("metadata"));
        orgA().when().get("/call?limit=1000").then().statusCode(200).body("id", hasItem(id));

        List<String> messages = Outboxes.payloads(dataSource, id, "status-update");
        assertEquals(1, messages.size(), "the status-update server message was written");
        assertTrue(messages.getFirst().contains(id), messages.getFirst());
    }

    @Test
    void aStoredAssistantAtTheLimitIsEmbeddedInTheCallAndItsServerMessage() throws Exception {
        // As assistant-service accepts it: its own body at the limit, metadata one level in.
        String assistantId = Stubs.assistant(wireMock, TestKeys.ORG_A,
                "{\"name\":\"stored\",\"metadata\":" + nested(JsonLimits.MAX_DEPTH - 1) + "}");
        String id = orgA().body("{\"assistantId\":\"" + assistantId + "\"}").when().post("/call/web")
                .then().statusCode(201).extract().path("id");
        JsonNode call = tree(orgA().when().get("/call/" + id).then().statusCode(200).extract().asString());
        assertEquals(tree(nested(JsonLimits.MAX_DEPTH - 1)), call.get("assistant").get("metadata"));
        orgA().when().get("/call?limit=1000").then().statusCode(200).body("id", hasItem(id));
        assertEquals(1, Outboxes.payloads(dataSource, id, "status-update").size());
    }

    @Test
    void aBodyDeeperThanTheLimitIsRefusedOnEveryBodyRoute() {
        String id = orgA().body("{\"assistant\":" + INLINE + "}").when().post("/call/web").then().statusCode(201)
                .extract().path("id");
        String phone = ",\"phoneNumberId\":\"" + newId() + "\",\"customer\":{\"number\":\"+14155550100\"}";
        for (int depth : new int[] {JsonLimits.MAX_DEPTH, 999}) {
            String metadata = "{\"assistant\":" + INLINE + ",\"metadata\":" + nested(depth);
            String inline = "{\"assistant\":{\"name\":\"inline\",\"metadata\":" + nested(depth - 1) + "}";
            for (String[] route : new String[][] {
                    {"/call", metadata + "}"}, {"/call", inline + "}"},
                    {"/call/web", metadata + "}"}, {"/call/web", inline + "}"},
                    {"/call/phone", metadata + phone + "}"}, {"/call/phone", inline + phone + "}"},
                    {"/call/webhook-secret/rotate", "{\"x\":" + nested(depth) + "}"}}) {
                orgA().body(route[1]).when().post(route[0]).then().statusCode(400)
                        .body("message", hasItem(TOO_DEEP)).body("statusCode", equalTo(400));
            }
            orgA().body("{\"metadata\":" + nested(depth) + "}").when().patch("/call/" + id).then().statusCode(400)
                    .body("message", hasItem(TOO_DEEP));
        }
    }
}
