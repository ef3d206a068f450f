package dev.voiceplane.call.rest;

import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * What the voice runtime is given for a squad call's hand-offs ({@code GET /internal/call/{id}/runtime}): every member's
 * assistant (inline or stored) with its overrides and then the call's applied, its {@code assistantDestinations}, and
 * its {@code variableValues} (its own overrides', then the call's, which win).
 */
@QuarkusTest
class SquadRuntimeConfigurationTest {

    @InjectWireMock
    WireMockServer wireMock;

    @Test
    void everyMemberComesWithItsOverridesDestinationsAndVariables() {
        String billing = Stubs.assistant(wireMock, TestKeys.ORG_A, "{\"name\":\"Billing\",\"firstMessage\":\"Billing here.\","
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"},\"voice\":{\"provider\":\"11labs\",\"voiceId\":\"adam\"}}");
        String id = orgA().body("{\"squad\":{\"members\":["
                        + "{\"assistant\":{\"name\":\"Front desk\",\"firstMessage\":\"Hello {{name}}\"},"
                        + "\"assistantDestinations\":[{\"type\":\"assistant\",\"assistantName\":\"Billing\","
                        + "\"message\":\"One moment, I am passing you to billing.\",\"description\":\"invoices\"}]},"
                        + "{\"assistantId\":\"" + billing + "\",\"assistantOverrides\":{\"firstMessage\":\"Billing for {{dept}}, {{name}}.\","
                        + "\"variableValues\":{\"dept\":\"invoices\",\"name\":\"someone\"}}}]},"
                        + "\"assistantOverrides\":{\"variableValues\":{\"name\":\"Ada\"}}}")
                .when().post("/call/web").then().statusCode(201).extract().path("id");

        internal(TestKeys.ORG_A).when().get("/internal/call/" + id + "/runtime").then().statusCode(200)
                .body("assistant.name", equalTo("Front desk"))
                .body("squad.members[0].assistant.name", equalTo("Front desk"))
                .body("squad.members[0].assistantDestinations[0].assistantName", equalTo("Billing"))
                .body("squad.members[0].assistantDestinations[0].message", equalTo("One moment, I am passing you to billing."))
                .body("squad.members[0].variableValues.name", equalTo("Ada"))
                .body("squad.members[1].assistant.name", equalTo("Billing"))
                .body("squad.members[1].assistant.firstMessage", equalTo("Billing for {{dept}}, {{name}}."))
                .body("squad.members[1].assistant.voice.voiceId", equalTo("adam"))
                .body("squad.members[1].assistantDestinations", nullValue())
                .body("squad.members[1].variableValues.dept", equalTo("invoices"))
                .body("squad.members[1].variableValues.name", equalTo("Ada"));
    }
}
