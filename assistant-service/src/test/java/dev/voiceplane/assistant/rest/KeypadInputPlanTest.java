package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Bodies.assistantWith;
import static dev.voiceplane.assistant.rest.Clients.tree;
import static dev.voiceplane.assistant.rest.Clients.written;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Today's SDK's {@code keypadInputPlan} (docs/assistants-and-squads.md "Validation rules"): written, read back and
 * patched exactly; {@code timeoutSeconds} 0..10, {@code delimiters} one of {@code #}, {@code *}, {@code ""},
 * {@code enabled} a boolean, refused with the field's path otherwise; the same in a squad member's overrides.
 */
@QuarkusTest
class KeypadInputPlanTest {

    static final String PLAN = "\"keypadInputPlan\": {\"enabled\": true, \"timeoutSeconds\": 2.50, \"delimiters\": \"#\"}";

    @Test
    void thePlanIsStoredAndReadBackExactly() {
        String body = "{\"name\":\"keypad\"," + PLAN + "}";
        JsonNode created = tree(orgA().body(body).when().post("/assistant").then().statusCode(201));
        assertEquals(tree(body), written(created));
        JsonNode read = tree(orgA().when().get("/assistant/" + created.path("id").asText()).then().statusCode(200));
        assertEquals(tree(body), written(read));
        assertEquals("2.50", read.at("/keypadInputPlan/timeoutSeconds").toString());
    }

    @Test
    void aPatchReplacesThePlanWholeAndIsValidatedLikeACreate() {
        String id = orgA().body("{" + PLAN + "}").when().post("/assistant").then().statusCode(201)
                .extract().path("id");
        orgA().body("{\"keypadInputPlan\":{\"enabled\":false,\"delimiters\":\"\"}}").when().patch("/assistant/" + id)
                .then().statusCode(200)
                .body("keypadInputPlan.enabled", equalTo(false))
                .body("keypadInputPlan.delimiters", equalTo(""))
                .body("keypadInputPlan.timeoutSeconds", nullValue());
        orgA().body("{\"keypadInputPlan\":{\"timeoutSeconds\":11}}").when().patch("/assistant/" + id)
                .then().statusCode(400)
                .body("message", contains("keypadInputPlan.timeoutSeconds must not be greater than 10"));
        orgA().when().get("/assistant/" + id).then().statusCode(200)
                .body("keypadInputPlan.enabled", equalTo(false));
        orgA().body("{\"keypadInputPlan\":null}").when().patch("/assistant/" + id).then().statusCode(200)
                .body("keypadInputPlan", nullValue());
    }

    @Test
    void timeoutSecondsIsANumberFromZeroToTen() {
        accepted(assistantWith("keypadInputPlan.timeoutSeconds", "0"));
        accepted(assistantWith("keypadInputPlan.timeoutSeconds", "10"));
        accepted(assistantWith("keypadInputPlan.timeoutSeconds", "0.5"));
        rejected(assistantWith("keypadInputPlan.timeoutSeconds", "-0.1"),
                "keypadInputPlan.timeoutSeconds must not be less than 0");
        rejected(assistantWith("keypadInputPlan.timeoutSeconds", "10.1"),
                "keypadInputPlan.timeoutSeconds must not be greater than 10");
        rejected(assistantWith("keypadInputPlan.timeoutSeconds", "\"off\""),
                "keypadInputPlan.timeoutSeconds must be a number");
    }

    @ParameterizedTest(name = "delimiters {0}")
    @ValueSource(strings = {"\"#\"", "\"*\"", "\"\""})
    void delimitersAreTheSdksValues(String value) {
        accepted(assistantWith("keypadInputPlan.delimiters", value));
    }

    @Test
    void anythingElseIsRefusedWithItsPath() {
        rejected(assistantWith("keypadInputPlan.delimiters", "\"0\""),
                "keypadInputPlan.delimiters must be one of the following values: #, *, ");
        rejected(assistantWith("keypadInputPlan.delimiters", "[\"#\"]"), "keypadInputPlan.delimiters must be a string");
        rejected(assistantWith("keypadInputPlan.enabled", "\"yes\""), "keypadInputPlan.enabled must be a boolean value");
        rejected(assistantWith("keypadInputPlan.digits", "4"), "keypadInputPlan.property digits should not exist");
        rejected("{\"keypadInputPlan\":true}", "keypadInputPlan must be an object");
    }

    @Test
    void aSquadMembersOverridesTakeThePlanValidated() {
        String squad = "{\"members\":[{\"assistant\":{\"name\":\"front\"},\"assistantOverrides\":{" + PLAN + "}}]}";
        JsonNode created = tree(orgA().body(squad).when().post("/squad").then().statusCode(201));
        assertEquals(tree("{" + PLAN + "}"), created.at("/members/0/assistantOverrides"));
        orgA().body("{\"members\":[{\"assistant\":{\"keypadInputPlan\":{\"delimiters\":\"0\"}}}]}")
                .when().post("/squad").then().statusCode(400)
                .body("message", contains("members.0.assistant.keypadInputPlan.delimiters must be one of the following"
                        + " values: #, *, "));
    }

    private static void accepted(String body) {
        orgA().body(body).when().post("/assistant").then().statusCode(201);
    }

    private static void rejected(String body, String message) {
        orgA().body(body).when().post("/assistant")
                .then().statusCode(400)
                .body("statusCode", equalTo(400))
                .body("error", equalTo("Bad Request"))
                .body("message", contains(message));
    }
}
