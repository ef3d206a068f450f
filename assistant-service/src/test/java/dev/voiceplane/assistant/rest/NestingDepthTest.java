package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.tree;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.json.JsonLimits;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * One depth rule for every JSON body (issue 24, item 4: a stored 999-deep assistant made {@code GET /assistant}
 * answer 400 when the list was written): a body nested deeper than {@link JsonLimits#MAX_DEPTH} is a 400 naming the
 * rule; an assistant or squad exactly at the limit is accepted and reads back by id, in the list, and as call-service
 * reads it.
 */
@QuarkusTest
class NestingDepthTest {

    private static final String TOO_DEEP = "request body is nested too deeply: objects and arrays may be nested at most "
            + JsonLimits.MAX_DEPTH + " levels within one another";

    /** Objects nested {@code depth} levels deep: {@code {"d":{"d":1}}} is 2. */
    static String nested(int depth) {
        return "{\"d\":".repeat(depth - 1) + "{\"d\":1}" + "}".repeat(depth - 1);
    }

    @Test
    void anAssistantAtTheLimitReadsBackByIdInTheListAndInternally() {
        JsonNode metadata = tree(nested(JsonLimits.MAX_DEPTH - 1));
        String id = orgA().body("{\"name\":\"deep\",\"metadata\":" + nested(JsonLimits.MAX_DEPTH - 1) + "}")
                .when().post("/assistant").then().statusCode(201).extract().path("id");
        assertEquals(metadata, tree(orgA().when().get("/assistant/" + id).then().statusCode(200)).get("metadata"));
        orgA().when().get("/assistant?limit=1000").then().statusCode(200).body("id", hasItem(id));
        assertEquals(metadata, tree(internal(TestKeys.ORG_A).when().get("/internal/assistant/" + id).then()
                .statusCode(200)).get("metadata"));
        orgA().body("{\"metadata\":" + nested(JsonLimits.MAX_DEPTH - 1) + "}").when().patch("/assistant/" + id)
                .then().statusCode(200);
    }

    @Test
    void aSquadAtTheLimitReadsBackByIdAndInTheList() {
        // root, members, the member, its assistant: the assistant's metadata sits four levels in.
        String body = "{\"members\":[{\"assistant\":{\"name\":\"m\",\"metadata\":" + nested(JsonLimits.MAX_DEPTH - 4)
                + "}}]}";
        String id = orgA().body(body).when().post("/squad").then().statusCode(201).extract().path("id");
        assertEquals(tree(nested(JsonLimits.MAX_DEPTH - 4)), tree(orgA().when().get("/squad/" + id).then()
                .statusCode(200)).get("members").get(0).get("assistant").get("metadata"));
        orgA().when().get("/squad?limit=1000").then().statusCode(200).body("id", hasItem(id));
        internal(TestKeys.ORG_A).when().get("/internal/squad/" + id).then().statusCode(200);
    }

    @Test
    void aBodyDeeperThanTheLimitIsRefusedOnEveryBodyRoute() {
        String assistant = orgA().body("{\"name\":\"shallow\"}").when().post("/assistant").then().statusCode(201)
                .extract().path("id");
        String squad = orgA().body("{\"members\":[{\"assistant\":{\"name\":\"m\"}}]}").when().post("/squad").then()
                .statusCode(201).extract().path("id");
        for (int depth : new int[] {JsonLimits.MAX_DEPTH, 999}) {
            String deepAssistant = "{\"name\":\"deep\",\"metadata\":" + nested(depth) + "}";
            String deepSquad = "{\"members\":[{\"assistant\":{\"name\":\"m\",\"metadata\":" + nested(depth - 3) + "}}]}";
            orgA().body(deepAssistant).when().post("/assistant").then().statusCode(400)
                    .body("message", hasItem(TOO_DEEP)).body("statusCode", equalTo(400));
            orgA().body(deepAssistant).when().patch("/assistant/" + assistant).then().statusCode(400)
                    .body("message", hasItem(TOO_DEEP));
            orgA().body(deepSquad).when().post("/squad").then().statusCode(400).body("message", hasItem(TOO_DEEP));
            orgA().body(deepSquad).when().patch("/squad/" + squad).then().statusCode(400)
                    .body("message", hasItem(TOO_DEEP));
            internal(TestKeys.ORG_A).body("{\"ids\":[],\"x\":" + nested(depth) + "}")
                    .when().post("/internal/assistant/lookup").then().statusCode(400).body("message", hasItem(TOO_DEEP));
        }
    }
}
