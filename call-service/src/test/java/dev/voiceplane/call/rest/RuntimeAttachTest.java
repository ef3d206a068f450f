package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.auth.MediaTokens;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The voice runtime's side of a call (docs/calls.md, "Voice runtime contract"): a web call's URL carries a media
 * token for that call; the runtime attaches to a live call once; a call the runtime never attached to gets its
 * end-of-call report at once; a call the runtime ends is hung up at the carrier.
 */
@QuarkusTest
class RuntimeAttachTest {

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aWebCallUrlCarriesAMediaTokenForThatCallOnly() {
        String url = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + "}").when().post("/call/web")
                .then().statusCode(201).extract().path("webCallUrl");
        String id = url.substring(url.lastIndexOf('/') + 1, url.indexOf('?'));
        String token = URI.create(url).getQuery().substring("token=".length());
        MediaTokens.Grant grant = assertDoesNotThrow(token);
        assertEquals(id, grant.callId().toString());
        assertEquals(TestKeys.ORG_A, grant.orgId());
        assertTrue(grant.expiresAt().isAfter(Instant.now()));
        orgA().when().get("/call/" + id).then().statusCode(200).body("webCallUrl", equalTo(url));
    }

    private static MediaTokens.Grant assertDoesNotThrow(String token) {
        try {
            return new MediaTokens(TestKeys.MEDIA_TOKEN_KEY).verify(token, Instant.now());
        } catch (MediaTokens.Refused refused) {
            throw new AssertionError("the web call's token does not verify: " + refused.getMessage());
        }
    }

    @Test
    void theRuntimeAttachesOnceToALiveCallOfItsOrganisation() {
        String id = webCall();
        internal(TestKeys.ORG_B).when().post("/internal/call/" + id + "/runtime/attach").then().statusCode(404);
        orgA().when().post("/internal/call/" + id + "/runtime/attach").then().statusCode(401);
        internal(TestKeys.ORG_A).when().post("/internal/call/" + id + "/runtime/attach").then().statusCode(200)
                .body("call.id", equalTo(id))
                .body("assistant.model.provider", equalTo("openai"));
        internal(TestKeys.ORG_A).when().post("/internal/call/" + id + "/runtime/attach").then().statusCode(409)
                .body("statusCode", equalTo(409))
                .body("message", equalTo("a voice runtime attached to the call already"));
        internal(TestKeys.ORG_A).when().post("/internal/call/" + newId() + "/runtime/attach").then().statusCode(404);

        String ended = webCall();
        orgA().when().post("/call/" + ended + "/end").then().statusCode(200);
        internal(TestKeys.ORG_A).when().post("/internal/call/" + ended + "/runtime/attach").then().statusCode(409)
                .body("message", equalTo("the call has ended; no runtime can attach to it"));
    }

    @Test
    void aCallTheRuntimeNeverAttachedToIsReportedAtOnce() throws Exception {
        String unattached = webCall();
        Outboxes.execute(dataSource, "update call.calls set status = 'in-progress', started_at = now() where id = ?::uuid",
                unattached);
        orgA().when().post("/call/" + unattached + "/end").then().statusCode(200);
        assertEquals(1, Outboxes.payloads(dataSource, unattached, "end-of-call-report").size(),
                "no runtime ever attached: nothing to wait for");

        String attached = webCall();
        internal(TestKeys.ORG_A).when().post("/internal/call/" + attached + "/runtime/attach").then().statusCode(200);
        orgA().when().post("/call/" + attached + "/end").then().statusCode(200);
        assertEquals(0, Outboxes.payloads(dataSource, attached, "end-of-call-report").size(),
                "the attached runtime's usage is still to come");
        internal(TestKeys.ORG_A).body("{\"sequence\":0,\"type\":\"ended\",\"endedReason\":\"customer-ended-call\","
                        + "\"usage\":{\"sttSeconds\":3}}")
                .when().post("/internal/call/" + attached + "/runtime/events").then().statusCode(200);
        assertEquals(1, Outboxes.payloads(dataSource, attached, "end-of-call-report").size());
    }

    @Test
    void aPhoneCallTheRuntimeEndsIsHungUpAtTheCarrier() {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        String carrierCallId = "CA" + newId().replace("-", "");
        Stubs.dial(wireMock, numberId, carrierCallId);
        String id = orgA().body("{\"assistant\":" + CallCreationTest.INLINE + ",\"phoneNumberId\":\"" + numberId
                + "\",\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone")
                .then().statusCode(201).extract().path("id");
        CarrierEventsTest.report(CarrierEventsTest.event("a1", id, carrierCallId, "status", "in-progress", null, 1L, null),
                true, true, "in-progress");
        internal(TestKeys.ORG_A).when().post("/internal/call/" + id + "/runtime/attach").then().statusCode(200);
        internal(TestKeys.ORG_A).body("{\"sequence\":0,\"type\":\"ended\",\"endedReason\":\"assistant-said-end-call-phrase\","
                        + "\"usage\":{\"sttSeconds\":3,\"llmPromptTokens\":10,\"llmCompletionTokens\":5,\"ttsCharacters\":40}}")
                .when().post("/internal/call/" + id + "/runtime/events").then().statusCode(200)
                .body("status", equalTo("ended"));
        orgA().when().get("/call/" + id).then().body("endedReason", equalTo("assistant-said-end-call-phrase"));
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/" + numberId + "/hangup")));
    }

    @Test
    void theSpeakingPlansAreFrozenIntoTheCallWithTheOverridesApplied() {
        String assistant = "{\"name\":\"plans\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"},"
                + "\"startSpeakingPlan\":{\"waitSeconds\":0.80,\"smartEndpointingPlan\":{\"provider\":\"vapi\"},"
                + "\"transcriptionEndpointingPlan\":{\"onNoPunctuationSeconds\":2.5}},"
                + "\"stopSpeakingPlan\":{\"numWords\":3}}";
        String id = orgA().body("{\"assistant\":" + assistant + ",\"assistantOverrides\":{\"stopSpeakingPlan\":"
                + "{\"numWords\":0,\"voiceSeconds\":0.3,\"acknowledgementPhrases\":[\"yeah\"]}}}")
                .when().post("/call/web").then().statusCode(201).extract().path("id");
        internal(TestKeys.ORG_A).when().post("/internal/call/" + id + "/runtime/attach").then().statusCode(200)
                .body("assistant.startSpeakingPlan.waitSeconds", equalTo(0.80f))
                .body("assistant.startSpeakingPlan.smartEndpointingPlan.provider", equalTo("vapi"))
                .body("assistant.startSpeakingPlan.transcriptionEndpointingPlan.onNoPunctuationSeconds", equalTo(2.5f))
                .body("assistant.stopSpeakingPlan.numWords", equalTo(0))
                .body("assistant.stopSpeakingPlan.voiceSeconds", equalTo(0.3f))
                .body("assistant.stopSpeakingPlan.acknowledgementPhrases[0]", equalTo("yeah"));
        orgA().body("{\"assistant\":{\"stopSpeakingPlan\":{\"numWords\":11}}}").when().post("/call/web")
                .then().statusCode(400)
                .body("message[0]", equalTo("assistant.stopSpeakingPlan.numWords must not be greater than 10"));
    }

    @Test
    void theKeypadInputPlanIsFrozenIntoTheCallWithTheOverridesApplied() {
        String assistant = "{\"name\":\"keys\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"},"
                + "\"keypadInputPlan\":{\"enabled\":false,\"timeoutSeconds\":2.50,\"delimiters\":\"*\"}}";
        String id = orgA().body("{\"assistant\":" + assistant + ",\"assistantOverrides\":{\"keypadInputPlan\":"
                + "{\"enabled\":true,\"timeoutSeconds\":0,\"delimiters\":\"#\"}}}")
                .when().post("/call/web").then().statusCode(201).extract().path("id");
        internal(TestKeys.ORG_A).when().post("/internal/call/" + id + "/runtime/attach").then().statusCode(200)
                .body("assistant.keypadInputPlan.enabled", equalTo(true))
                .body("assistant.keypadInputPlan.timeoutSeconds", equalTo(0))
                .body("assistant.keypadInputPlan.delimiters", equalTo("#"));
        orgA().body("{\"assistant\":{\"keypadInputPlan\":{\"timeoutSeconds\":12}}}").when().post("/call/web")
                .then().statusCode(400)
                .body("message[0]", equalTo("assistant.keypadInputPlan.timeoutSeconds must not be greater than 10"));
        orgA().body("{\"assistant\":{},\"assistantOverrides\":{\"keypadInputPlan\":{\"delimiters\":\"0\"}}}")
                .when().post("/call/web").then().statusCode(400)
                .body("message[0]", equalTo("assistantOverrides.keypadInputPlan.delimiters must be one of the following"
                        + " values: #, *, "));
    }

    private static String webCall() {
        return orgA().body("{\"assistant\":" + CallCreationTest.INLINE + "}").when().post("/call/web")
                .then().statusCode(201).extract().path("id");
    }
}
