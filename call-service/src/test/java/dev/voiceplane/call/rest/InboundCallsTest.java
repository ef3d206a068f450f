package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

/** Inbound calls: the number's assistant, or an assistant-request to its server URL; refused calls still exist. */
@QuarkusTest
class InboundCallsTest {

    @InjectWireMock
    WireMockServer wireMock;

    private ExtractableResponse<Response> open(String carrierCallId, String numberJson) {
        return internal(TestKeys.ORG_A).body("{\"phoneCallProvider\":\"twilio\",\"phoneCallProviderId\":\"" + carrierCallId
                        + "\",\"phoneCallTransport\":\"pstn\",\"customer\":{\"number\":\"+14155550999\"},\"phoneNumber\":"
                        + numberJson + "}")
                .when().post("/internal/call/inbound").then().statusCode(200).extract();
    }

    @Test
    void theNumbersAssistantAnswersAndARetriedWebhookGetsTheSameCall() {
        String assistantId = Stubs.assistant(wireMock, TestKeys.ORG_A, "{\"name\":\"reception\"}");
        String numberId = newId();
        String number = Stubs.numberJson(numberId, TestKeys.ORG_A, assistantId, null);
        String carrierCallId = "CA-in-" + newId();
        ExtractableResponse<Response> first = open(carrierCallId, number);
        assertEquals("connect", first.path("answer"));
        String id = first.path("callId");
        assertEquals(id, open(carrierCallId, number).path("callId"));
        orgA().when().get("/call/" + id).then().statusCode(200)
                .body("type", org.hamcrest.Matchers.equalTo("inboundPhoneCall"))
                .body("status", org.hamcrest.Matchers.equalTo("queued"))
                .body("assistant.name", org.hamcrest.Matchers.equalTo("reception"))
                .body("assistantId", org.hamcrest.Matchers.equalTo(assistantId))
                .body("phoneNumberId", org.hamcrest.Matchers.equalTo(numberId))
                .body("phoneCallProviderId", org.hamcrest.Matchers.equalTo(carrierCallId))
                .body("customer.number", org.hamcrest.Matchers.equalTo("+14155550999"));
        orgA().queryParam("phoneNumberId", numberId).when().get("/call").then().statusCode(200)
                .body("size()", org.hamcrest.Matchers.equalTo(1));
    }

    @Test
    void withoutAnAssistantTheServerUrlIsAsked() {
        String hook = "/hooks/" + newId();
        wireMock.stubFor(post(urlEqualTo(hook)).willReturn(okJson("{\"assistant\":{\"name\":\"from the hook\"},"
                + "\"assistantOverrides\":{\"variableValues\":{\"vip\":true}}}")));
        String number = Stubs.numberJson(newId(), TestKeys.ORG_A, null, wireMock.baseUrl() + hook);
        ExtractableResponse<Response> answer = open("CA-req-" + newId(), number);
        assertEquals("connect", answer.path("answer"));
        orgA().when().get("/call/" + answer.path("callId")).then().statusCode(200)
                .body("assistant.name", org.hamcrest.Matchers.equalTo("from the hook"))
                .body("assistantOverrides.variableValues.vip", org.hamcrest.Matchers.equalTo(true));
        wireMock.verify(postRequestedFor(urlEqualTo(hook))
                .withHeader("x-vapi-secret", equalTo("number-secret"))
                .withRequestBody(matchingJsonPath("$.message.type", equalTo("assistant-request")))
                .withRequestBody(matchingJsonPath("$.message.customer.number", equalTo("+14155550999"))));
    }

    @Test
    void anErrorAnswerIsSpokenAndTheCallEndsWithTheErasReason() {
        String hook = "/hooks/" + newId();
        wireMock.stubFor(post(urlEqualTo(hook)).willReturn(okJson("{\"error\":\"We are closed today.\"}")));
        ExtractableResponse<Response> answer = open("CA-err-" + newId(),
                Stubs.numberJson(newId(), TestKeys.ORG_A, null, wireMock.baseUrl() + hook));
        assertEquals("refuse", answer.path("answer"));
        assertEquals("We are closed today.", answer.path("message"));
        orgA().when().get("/call/" + answer.path("callId")).then().statusCode(200)
                .body("status", org.hamcrest.Matchers.equalTo("ended"))
                .body("endedReason", org.hamcrest.Matchers.equalTo("assistant-request-returned-error"));
    }

    @Test
    void noAssistantNoServerUrlAndBadAnswersAreRefusedPolitely() {
        ExtractableResponse<Response> none = open("CA-none-" + newId(), Stubs.numberJson(newId(), TestKeys.ORG_A, null, null));
        assertEquals("refuse", none.path("answer"));
        orgA().when().get("/call/" + none.path("callId")).then()
                .body("endedReason", org.hamcrest.Matchers.equalTo("assistant-not-found"));

        String hook = "/hooks/" + newId();
        wireMock.stubFor(post(urlEqualTo(hook)).willReturn(okJson("{\"assistant\":{\"firstMessageMode\":\"shout\"}}")));
        ExtractableResponse<Response> invalid = open("CA-bad-" + newId(),
                Stubs.numberJson(newId(), TestKeys.ORG_A, null, wireMock.baseUrl() + hook));
        assertEquals("refuse", invalid.path("answer"));
        orgA().when().get("/call/" + invalid.path("callId")).then()
                .body("endedReason", org.hamcrest.Matchers.equalTo("assistant-request-returned-invalid-assistant"));

        String failing = "/hooks/" + newId();
        wireMock.stubFor(post(urlEqualTo(failing)).willReturn(com.github.tomakehurst.wiremock.client.WireMock.serverError()));
        ExtractableResponse<Response> failed = open("CA-fail-" + newId(),
                Stubs.numberJson(newId(), TestKeys.ORG_A, null, wireMock.baseUrl() + failing));
        orgA().when().get("/call/" + failed.path("callId")).then()
                .body("endedReason", org.hamcrest.Matchers.equalTo("assistant-request-failed"));

        String unknown = newId();
        Stubs.unknownAssistant(wireMock, unknown);
        ExtractableResponse<Response> gone = open("CA-gone-" + newId(), Stubs.numberJson(newId(), TestKeys.ORG_A, unknown, null));
        assertEquals("refuse", gone.path("answer"));
        orgA().when().get("/call/" + gone.path("callId")).then()
                .body("endedReason", org.hamcrest.Matchers.equalTo("assistant-not-found"));
        // A deleted assistant counts as none: the server URL is asked.
        String hookAfterDelete = "/hooks/" + newId();
        wireMock.stubFor(post(urlEqualTo(hookAfterDelete)).willReturn(okJson("{\"assistant\":{\"name\":\"fallback\"}}")));
        ExtractableResponse<Response> fallback = open("CA-fb-" + newId(),
                Stubs.numberJson(newId(), TestKeys.ORG_A, unknown, wireMock.baseUrl() + hookAfterDelete));
        assertEquals("connect", fallback.path("answer"));
        orgA().when().get("/call/" + fallback.path("callId")).then()
                .body("assistant.name", org.hamcrest.Matchers.equalTo("fallback"));
    }

    @Test
    void theServerUrlMayAnswerAStoredAssistantASquadIdOrASquad() {
        String assistantId = Stubs.assistant(wireMock, TestKeys.ORG_A, "{\"name\":\"stored one\"}");
        String byId = "/hooks/" + newId();
        wireMock.stubFor(post(urlEqualTo(byId)).willReturn(okJson("{\"assistantId\":\"" + assistantId + "\","
                + "\"assistantOverrides\":{\"firstMessage\":\"Hello from the hook\"}}")));
        ExtractableResponse<Response> stored = open("CA-id-" + newId(),
                Stubs.numberJson(newId(), TestKeys.ORG_A, null, wireMock.baseUrl() + byId));
        assertEquals("connect", stored.path("answer"));
        orgA().when().get("/call/" + stored.path("callId")).then().statusCode(200)
                .body("assistantId", org.hamcrest.Matchers.equalTo(assistantId))
                .body("assistant.name", org.hamcrest.Matchers.equalTo("stored one"))
                .body("assistantOverrides.firstMessage", org.hamcrest.Matchers.equalTo("Hello from the hook"));

        String squadId = newId();
        Stubs.squad(wireMock, TestKeys.ORG_A, squadId, "{\"id\":\"" + squadId + "\",\"orgId\":\"" + TestKeys.ORG_A
                + "\",\"members\":[{\"assistantId\":\"" + assistantId + "\"}]}");
        String bySquadId = "/hooks/" + newId();
        wireMock.stubFor(post(urlEqualTo(bySquadId)).willReturn(okJson("{\"squadId\":\"" + squadId + "\"}")));
        ExtractableResponse<Response> squad = open("CA-sq-" + newId(),
                Stubs.numberJson(newId(), TestKeys.ORG_A, null, wireMock.baseUrl() + bySquadId));
        assertEquals("connect", squad.path("answer"));
        orgA().when().get("/call/" + squad.path("callId")).then().statusCode(200)
                .body("squadId", org.hamcrest.Matchers.equalTo(squadId))
                .body("squad.members[0].assistantId", org.hamcrest.Matchers.equalTo(assistantId));

        String inlineSquad = "/hooks/" + newId();
        wireMock.stubFor(post(urlEqualTo(inlineSquad)).willReturn(okJson(
                "{\"squad\":{\"members\":[{\"assistant\":{\"name\":\"first\"}},{\"assistant\":{\"name\":\"second\"}}]}}")));
        ExtractableResponse<Response> inline = open("CA-isq-" + newId(),
                Stubs.numberJson(newId(), TestKeys.ORG_A, null, wireMock.baseUrl() + inlineSquad));
        assertEquals("connect", inline.path("answer"));
        orgA().when().get("/call/" + inline.path("callId")).then().statusCode(200)
                .body("squad.members[1].assistant.name", org.hamcrest.Matchers.equalTo("second"));

        // An assistantId the organisation does not have: the call ends as assistant-not-found.
        String unknown = newId();
        Stubs.unknownAssistant(wireMock, unknown);
        String byUnknown = "/hooks/" + newId();
        wireMock.stubFor(post(urlEqualTo(byUnknown)).willReturn(okJson("{\"assistantId\":\"" + unknown + "\"}")));
        ExtractableResponse<Response> missing = open("CA-unk-" + newId(),
                Stubs.numberJson(newId(), TestKeys.ORG_A, null, wireMock.baseUrl() + byUnknown));
        assertEquals("refuse", missing.path("answer"));
        orgA().when().get("/call/" + missing.path("callId")).then()
                .body("endedReason", org.hamcrest.Matchers.equalTo("assistant-not-found"));

        // More than one of them is not a valid answer.
        String both = "/hooks/" + newId();
        wireMock.stubFor(post(urlEqualTo(both)).willReturn(okJson("{\"assistantId\":\"" + assistantId + "\","
                + "\"assistant\":{\"name\":\"x\"}}")));
        ExtractableResponse<Response> twice = open("CA-two-" + newId(),
                Stubs.numberJson(newId(), TestKeys.ORG_A, null, wireMock.baseUrl() + both));
        assertEquals("refuse", twice.path("answer"));
        orgA().when().get("/call/" + twice.path("callId")).then()
                .body("endedReason", org.hamcrest.Matchers.equalTo("assistant-request-returned-invalid-assistant"));
    }
}
