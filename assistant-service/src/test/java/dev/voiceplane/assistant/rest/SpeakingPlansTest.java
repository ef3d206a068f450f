package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Bodies.assistantWith;
import static dev.voiceplane.assistant.rest.Clients.tree;
import static dev.voiceplane.assistant.rest.Clients.withoutSecrets;
import static dev.voiceplane.assistant.rest.Clients.written;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Today's SDK's {@code startSpeakingPlan} and {@code stopSpeakingPlan} (docs/assistants-and-squads.md "Validation
 * rules"): written, read back and patched exactly, their ranges and enumerations refused with the field's path, and
 * the same in a squad member's overrides.
 */
@QuarkusTest
class SpeakingPlansTest {

    static final String PLANS = """
            "startSpeakingPlan": {
              "waitSeconds": 0.8,
              "smartEndpointingEnabled": "livekit",
              "smartEndpointingPlan": {"provider": "livekit", "waitFunction": "200 + 8000 * x"},
              "customEndpointingRules": [{"type": "customer", "regex": "^\\\\d+$", "regexOptions": [], "timeoutSeconds": 2.5}],
              "transcriptionEndpointingPlan": {"onPunctuationSeconds": 0.1, "onNoPunctuationSeconds": 1.50,
                                               "onNumberSeconds": 0.5}
            },
            "stopSpeakingPlan": {
              "numWords": 2, "voiceSeconds": 0.25, "backoffSeconds": 1.0,
              "acknowledgementPhrases": ["yeah", "mm-hmm", "I see"],
              "interruptionPhrases": ["stop", "hold on"]
            }""";

    @Test
    void bothPlansAreStoredAndReadBackExactly() {
        String body = "{\"name\":\"plans\"," + PLANS + "}";
        JsonNode sent = tree(body);
        JsonNode created = tree(orgA().body(body).when().post("/assistant").then().statusCode(201));
        assertEquals(sent, written(created));
        String id = created.path("id").asText();
        JsonNode read = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        assertEquals(sent, written(read));
        // Numbers as written: 1.50 stays 1.50, 1.0 stays 1.0.
        assertEquals("1.50", read.at("/startSpeakingPlan/transcriptionEndpointingPlan/onNoPunctuationSeconds").toString());
        assertEquals("1.0", read.at("/stopSpeakingPlan/backoffSeconds").toString());
    }

    @Test
    void aPatchReplacesAPlanWholeAndIsValidatedLikeACreate() {
        String id = orgA().body("{" + PLANS + "}").when().post("/assistant").then().statusCode(201)
                .extract().path("id");
        // A nested object given in a PATCH replaces the stored one as a whole (docs/assistants-and-squads.md "PATCH").
        orgA().body("{\"stopSpeakingPlan\":{\"numWords\":0,\"acknowledgementPhrases\":[\"mhm\"]}}")
                .when().patch("/assistant/" + id)
                .then().statusCode(200)
                .body("stopSpeakingPlan.numWords", equalTo(0))
                .body("stopSpeakingPlan.acknowledgementPhrases", contains("mhm"))
                .body("stopSpeakingPlan.interruptionPhrases", nullValue())
                .body("stopSpeakingPlan.voiceSeconds", nullValue())
                .body("startSpeakingPlan.waitSeconds", equalTo(0.8f))
                .body("startSpeakingPlan.transcriptionEndpointingPlan.onNumberSeconds", equalTo(0.5f));
        orgA().body("{\"startSpeakingPlan\":null}").when().patch("/assistant/" + id).then().statusCode(200)
                .body("startSpeakingPlan", nullValue())
                .body("stopSpeakingPlan.acknowledgementPhrases", contains("mhm"));
        orgA().body("{\"stopSpeakingPlan\":{\"voiceSeconds\":0.6}}").when().patch("/assistant/" + id)
                .then().statusCode(400)
                .body("message", contains("stopSpeakingPlan.voiceSeconds must not be greater than 0.5"));
        orgA().when().get("/assistant/" + id).then().statusCode(200)
                .body("stopSpeakingPlan.numWords", equalTo(0))
                .body("stopSpeakingPlan.voiceSeconds", nullValue());
    }

    @ParameterizedTest(name = "{0} in {1}..{2}")
    @CsvSource({
            "startSpeakingPlan.waitSeconds, 0, 5",
            "startSpeakingPlan.transcriptionEndpointingPlan.onPunctuationSeconds, 0, 3",
            "startSpeakingPlan.transcriptionEndpointingPlan.onNoPunctuationSeconds, 0, 3",
            "startSpeakingPlan.transcriptionEndpointingPlan.onNumberSeconds, 0, 3",
            "stopSpeakingPlan.numWords, 0, 10",
            "stopSpeakingPlan.voiceSeconds, 0, 0.5",
            "stopSpeakingPlan.backoffSeconds, 0, 10"})
    void numbersOutsideTheirRangeAreRejectedAndTheBoundsAccepted(String path, String min, String max) {
        BigDecimal step = new BigDecimal("0.1");
        rejected(assistantWith(path, new BigDecimal(min).subtract(step).toPlainString()),
                path + " must not be less than " + min);
        rejected(assistantWith(path, new BigDecimal(max).add(step).toPlainString()),
                path + " must not be greater than " + max);
        accepted(assistantWith(path, min));
        accepted(assistantWith(path, max));
        rejected(assistantWith(path, "\"1\""), path + " must be a number");
    }

    @Test
    void aSmartEndpointingProviderIsOneOfTheSdksAndRequired() {
        for (String provider : new String[] {"vapi", "livekit", "custom-endpointing-model"}) {
            accepted(assistantWith("startSpeakingPlan.smartEndpointingPlan", "{\"provider\":\"" + provider + "\"}"));
        }
        rejected(assistantWith("startSpeakingPlan.smartEndpointingPlan", "{\"provider\":\"krisp\"}"),
                "startSpeakingPlan.smartEndpointingPlan.provider must be one of the following values: vapi, livekit,"
                        + " custom-endpointing-model");
        rejected(assistantWith("startSpeakingPlan.smartEndpointingPlan", "{\"waitFunction\":\"x\"}"),
                "startSpeakingPlan.smartEndpointingPlan.provider should not be null or undefined");
        rejected(assistantWith("startSpeakingPlan.smartEndpointingPlan",
                "{\"provider\":\"custom-endpointing-model\",\"server\":{\"url\":\"not a url\"}}"),
                "startSpeakingPlan.smartEndpointingPlan.server.url must be a URL address");
    }

    @ParameterizedTest(name = "smartEndpointingEnabled {0}")
    @ValueSource(strings = {"true", "false", "\"livekit\""})
    void smartEndpointingEnabledIsABooleanOrLivekit(String value) {
        accepted(assistantWith("startSpeakingPlan.smartEndpointingEnabled", value));
    }

    @ParameterizedTest(name = "smartEndpointingEnabled {0}")
    @ValueSource(strings = {"\"vapi\"", "1", "{}", "[]"})
    void smartEndpointingEnabledRefusesAnythingElse(String value) {
        rejected(assistantWith("startSpeakingPlan.smartEndpointingEnabled", value),
                "startSpeakingPlan.smartEndpointingEnabled must be a boolean value or livekit");
    }

    @Test
    void phrasesAreStringsAndUnknownKeysAreRefused() {
        rejected(assistantWith("stopSpeakingPlan.acknowledgementPhrases", "[\"yeah\",null]"),
                "stopSpeakingPlan.acknowledgementPhrases.1 should not be null or undefined");
        rejected(assistantWith("stopSpeakingPlan.interruptionPhrases", "[\"stop\",2]"),
                "stopSpeakingPlan.interruptionPhrases.1 must be a string");
        rejected(assistantWith("stopSpeakingPlan.numWordz", "2"), "stopSpeakingPlan.property numWordz should not exist");
        rejected(assistantWith("startSpeakingPlan.transcriptionEndpointingPlan.onCommaSeconds", "1"),
                "startSpeakingPlan.transcriptionEndpointingPlan.property onCommaSeconds should not exist");
        rejected(assistantWith("startSpeakingPlan.customEndpointingRules", "[\"^yes$\"]"),
                "startSpeakingPlan.customEndpointingRules.0 must be an object");
    }

    @Test
    void theCustomEndpointingModelsSecretIsWriteOnly() {
        String body = "{\"startSpeakingPlan\":{\"smartEndpointingPlan\":{\"provider\":\"custom-endpointing-model\","
                + "\"server\":{\"url\":\"https://endpointing.example.com/turn\",\"secret\":\"whsec_turns\"}}}}";
        JsonNode created = tree(orgA().body(body).when().post("/assistant").then().statusCode(201));
        assertEquals(withoutSecrets(tree(body)), written(created));
        orgA().when().get("/assistant/" + created.path("id").asText()).then().statusCode(200)
                .body("startSpeakingPlan.smartEndpointingPlan.server.url", equalTo("https://endpointing.example.com/turn"))
                .body("startSpeakingPlan.smartEndpointingPlan.server.secret", nullValue());
    }

    @Test
    void aSquadMembersOverridesTakeThePlansValidated() {
        String squad = "{\"members\":[{\"assistant\":{\"name\":\"front\"},\"assistantOverrides\":{" + PLANS + "}}]}";
        JsonNode created = tree(orgA().body(squad).when().post("/squad").then().statusCode(201));
        assertEquals(tree("{" + PLANS + "}"), created.at("/members/0/assistantOverrides"));
        orgA().body("{\"members\":[{\"assistant\":{},\"assistantOverrides\":{\"stopSpeakingPlan\":{\"numWords\":11}}}]}")
                .when().post("/squad").then().statusCode(400)
                .body("message", contains("members.0.assistantOverrides.stopSpeakingPlan.numWords must not be greater"
                        + " than 10"));
        orgA().body("{\"members\":[{\"assistant\":{\"startSpeakingPlan\":{\"waitSeconds\":-1}}}]}")
                .when().post("/squad").then().statusCode(400)
                .body("message", contains("members.0.assistant.startSpeakingPlan.waitSeconds must not be less than 0"));
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
