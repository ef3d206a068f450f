package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A squad's members: required and non-empty, one assistant each, inline assistants validated as POST /assistant. */
@QuarkusTest
class SquadValidationTest {

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "{}| members should not be null or undefined",
            "{\"members\":null}| members should not be null or undefined",
            "{\"members\":[]}| members must contain at least 1 elements",
            "{\"members\":[null]}| members.0 should not be null or undefined",
            "{\"members\":{}}| members must be an array",
            "{\"members\":[{}]}| members.0 must have assistantId or assistant",
            "{\"members\":[{\"assistantOverrides\":{\"name\":\"x\"}}]}| members.0 must have assistantId or assistant",
            "{\"members\":[{\"assistant\":{},\"assistantId\":\"0190b5a4-7c1e-7b7e-9a43-3c9a5e0f1d22\"}]}| members.0 must have either assistantId or assistant, not both",
            "{\"members\":[{\"assistantId\":42}]}| members.0.assistantId must be a string",
            "{\"members\":[{\"assistant\":[]}]}| members.0.assistant must be an object",
            "{\"members\":[{\"assistant\":{},\"team\":\"a\"}]}| members.0.property team should not exist",
            "{\"members\":[{\"assistant\":{}}],\"membersOverrides\":{}}| property membersOverrides should not exist",
            "{\"members\":[{\"assistant\":{}}],\"id\":\"x\"}| property id should not exist",
            "{\"members\":[{\"assistant\":{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"temperature\":2.5}}}]}| members.0.assistant.model.temperature must not be greater than 2",
            "{\"members\":[{\"assistant\":{\"voice\":{\"provider\":\"polly\",\"voiceId\":\"v\"}}}]}| members.0.assistant.voice.provider must be one of the following values: 11labs, azure, cartesia, custom-voice, deepgram, hume, inworld, lmnt, minimax, neets, neuphonic, openai, playht, rime-ai, sesame, smallest-ai, tavus, vapi, wellsaid",
            "{\"members\":[{\"assistant\":{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"seed\":1}}}]}| members.0.assistant.model.property seed should not exist",
            "{\"members\":[{\"assistant\":{\"variableValues\":{\"a\":1}}}]}| members.0.assistant.property variableValues should not exist",
            "{\"members\":[{\"assistant\":{\"id\":\"x\"}}]}| members.0.assistant.property id should not exist",
            "{\"members\":[{\"assistant\":{},\"assistantOverrides\":{\"silenceTimeoutSeconds\":5}}]}| members.0.assistantOverrides.silenceTimeoutSeconds must not be less than 10",
            "{\"members\":[{\"assistant\":{},\"assistantOverrides\":{\"model\":{\"provider\":\"openai\"}}}]}| members.0.assistantOverrides.model.model should not be null or undefined",
            "{\"members\":[{\"assistant\":{},\"assistantOverrides\":{\"orgId\":\"org-b\"}}]}| members.0.assistantOverrides.property orgId should not exist",
            "{\"members\":[{\"assistant\":{},\"assistantOverrides\":{\"variableValues\":\"x\"}}]}| members.0.assistantOverrides.variableValues must be an object",
            "{\"members\":[{\"assistant\":{},\"assistantDestinations\":[{\"type\":\"number\",\"assistantName\":\"B\"}]}]}| members.0.assistantDestinations.0.type must be one of the following values: assistant",
            "{\"members\":[{\"assistant\":{},\"assistantDestinations\":[{\"type\":\"assistant\"}]}]}| members.0.assistantDestinations.0.assistantName should not be null or undefined",
            "{\"members\":[{\"assistant\":{},\"assistantDestinations\":[{\"type\":\"assistant\",\"assistantName\":\"B\",\"number\":\"+1\"}]}]}| members.0.assistantDestinations.0.property number should not exist",
            "{\"members\":[{\"assistant\":{},\"assistantDestinations\":[null]}]}| members.0.assistantDestinations.0 should not be null or undefined",
            "{\"members\":[{\"assistant\":{},\"assistantDestinations\":{}}]}| members.0.assistantDestinations must be an array"})
    void membersAreValidated(String body, String message) {
        orgA().body(body).when().post("/squad")
                .then().statusCode(400)
                .body("error", equalTo("Bad Request"))
                .body("statusCode", equalTo(400))
                .body("message", contains(message.strip()));
    }

    @Test
    void everyProblemOfEveryMemberIsListed() {
        orgA().body("{\"members\":[{\"assistant\":{\"backgroundSound\":\"rain\",\"name\":\"" + "n".repeat(101) + "\"}},"
                        + "{},{\"assistant\":{},\"assistantOverrides\":{\"maxDurationSeconds\":4000}}]}")
                .when().post("/squad")
                .then().statusCode(400)
                .body("message", containsInAnyOrder(
                        "members.0.assistant.backgroundSound must be one of the following values: off, office",
                        "members.0.assistant.name must be shorter than or equal to 100 characters",
                        "members.1 must have assistantId or assistant",
                        "members.2.assistantOverrides.maxDurationSeconds must not be greater than 3600"));
    }

    @Test
    void memberAssistantIdsMustNameAssistantsOfTheOrganisation() {
        String known = createAssistant(orgA());
        String unknown = newId();
        orgA().body("{\"members\":[{\"assistantId\":\"" + unknown + "\"},{\"assistantId\":\"" + known + "\"},"
                        + "{\"assistantId\":\"front-desk\"}]}")
                .when().post("/squad")
                .then().statusCode(400)
                .body("message", containsInAnyOrder(
                        "members.0.assistantId refers to an unknown assistant: " + unknown,
                        "members.2.assistantId refers to an unknown assistant: front-desk"));
        orgA().body("{\"members\":[{\"assistantId\":\"" + known + "\"}]}").when().post("/squad").then().statusCode(201);
    }

    @Test
    void inlineAssistantsAndOverridesAcceptEveryAssistantField() {
        String body = Bodies.maximalAssistant(newId(), newId()).replaceAll("\"fileIds\": \\[[^]]*]", "\"fileIds\": []");
        orgA().body("{\"members\":[{\"assistant\":" + body + ",\"assistantOverrides\":"
                        + body.replaceFirst("\\{", "{\"variableValues\":{\"x\":1},") + "}]}")
                .when().post("/squad").then().statusCode(201);
    }
}
