package dev.voiceplane.telephony.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import dev.voiceplane.telephony.carrier.TwilioSignature;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The carrier webhooks through their routes, as the carriers send them: the route verifier checks each request once
 * and the handler acts on what it checked. For Vonage that is visible from outside: the signature secret comes from
 * credential-service, which is asked once per webhook (checking again in the handler asked it twice).
 */
@QuarkusTest
class VerifiedOnceTest {

    @InjectWireMock
    WireMockServer wm;

    private int secretReads(VonageTest.Account account) {
        return wm.findAll(getRequestedFor(urlEqualTo("/internal/credential/" + account.credentialId() + "/secret")))
                .size();
    }

    private static String newCallSid() {
        return "CA" + UUID.randomUUID().toString().replace("-", "");
    }

    /** The voice URL webhook's parameters as Twilio sends them for a call ringing {@code number}. */
    private static Map<String, List<String>> inboundCall(Numbers.Imported number, String callSid) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        params.put("AccountSid", List.of(number.accountSid()));
        params.put("CallSid", List.of(callSid));
        params.put("CallStatus", List.of("ringing"));
        params.put("Direction", List.of("inbound"));
        params.put("From", List.of("+14155550123"));
        params.put("To", List.of(number.number()));
        return params;
    }

    private static String form(Map<String, List<String>> params) {
        return params.entrySet().stream()
                .flatMap(entry -> entry.getValue().stream().map(value -> URLEncoder.encode(entry.getKey(),
                        StandardCharsets.UTF_8) + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8)))
                .collect(Collectors.joining("&"));
    }

    private VonageTest vonage() {
        VonageTest helper = new VonageTest();
        helper.wm = wm;
        return helper;
    }

    @Test
    void aVonageWebhookAsksCredentialServiceForItsSecretOnce() throws Exception {
        VonageTest helper = vonage();
        VonageTest.Account account = helper.account(true);
        String number = "+4477002" + (100000 + (int) (Math.random() * 800000));
        String id = helper.importNumber(account, number);
        String uuid = "uuid-" + newId();
        wm.stubFor(post(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(uuid)))
                .willReturn(okJson("{\"callId\":\"call-" + uuid + "\",\"answer\":\"connect\"}")));
        wm.stubFor(post(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(uuid)))
                .willReturn(okJson("{\"recorded\":true}")));

        int before = secretReads(account);
        byte[] answer = ("{\"to\":\"" + number.substring(1) + "\",\"from\":\"447700900001\",\"uuid\":\"" + uuid
                + "\",\"conversation_uuid\":\"CON-1\"}").getBytes(StandardCharsets.UTF_8);
        given().contentType("application/json").header("Authorization", helper.signed(account, answer, new Date()))
                .body(answer)
                .when().post("/vonage/answer")
                .then().statusCode(200)
                .body("[0].action", equalTo("connect"))
                .body("[0].endpoint[0].headers.callId", equalTo("call-" + uuid))
                .body("[0].endpoint[0].headers.orgId", equalTo(TestKeys.ORG_A));
        assertEquals(before + 1, secretReads(account), "credential-service asked for the secret once per answer webhook");
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneNumber.id", WireMock.equalTo(id)))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(uuid))));

        byte[] event = ("{\"to\":\"" + number.substring(1) + "\",\"from\":\"447700900001\",\"uuid\":\"" + uuid
                + "\",\"status\":\"answered\",\"direction\":\"inbound\"}").getBytes(StandardCharsets.UTF_8);
        given().contentType("application/json").header("Authorization", helper.signed(account, event, new Date()))
                .body(event)
                .when().post("/vonage/event")
                .then().statusCode(204);
        assertEquals(before + 2, secretReads(account), "credential-service asked for the secret once per event");
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(uuid)))
                .withRequestBody(matchingJsonPath("$.carrierStatus", WireMock.equalTo("answered"))));

        // A forged token: refused by the verifier in the error shape, the secret read once to find out.
        VonageTest.Account forger = new VonageTest.Account(account.credentialId(), account.apiKey(),
                account.apiSecret(), "not-the-signature-secret", account.keys());
        given().contentType("application/json").header("Authorization", helper.signed(forger, event, new Date()))
                .body(event)
                .when().post("/vonage/event")
                .then().statusCode(403)
                .body("message", equalTo("the request signature is missing or does not match"))
                .body("statusCode", equalTo(403));
        assertEquals(before + 3, secretReads(account));
    }

    @Test
    void aSignedTwilioCallThroughItsRouteIsHandledWithWhatWasVerified() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callSid = newCallSid();
        wm.stubFor(post(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(callSid)))
                .willReturn(okJson("{\"callId\":\"call-" + callSid + "\",\"answer\":\"connect\"}")));
        Map<String, List<String>> params = inboundCall(number, callSid);

        given().contentType("application/x-www-form-urlencoded")
                .header("X-Twilio-Signature", TwilioSignature.compute(number.authToken(),
                        Stubs.PUBLIC + "/twilio/inbound_call", params))
                .body(form(params))
                .when().post("/twilio/inbound_call")
                .then().statusCode(200)
                .body(containsString("<Parameter name=\"callId\" value=\"call-" + callSid + "\"/>"))
                .body(containsString("<Parameter name=\"orgId\" value=\"" + TestKeys.ORG_A + "\"/>"));
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/inbound"))
                .withHeader("X-Voice-Org-Id", WireMock.equalTo(TestKeys.ORG_A))
                .withRequestBody(matchingJsonPath("$.phoneNumber.id", WireMock.equalTo(number.id())))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(callSid))));

        // Signed with another token: refused by the verifier, and call-service is not asked.
        String other = newCallSid();
        Map<String, List<String>> forged = inboundCall(number, other);
        given().contentType("application/x-www-form-urlencoded")
                .header("X-Twilio-Signature", TwilioSignature.compute("another-token",
                        Stubs.PUBLIC + "/twilio/inbound_call", forged))
                .body(form(forged))
                .when().post("/twilio/inbound_call")
                .then().statusCode(403)
                .body("message", equalTo("the request signature is missing or does not match"));
        wm.verify(0, postRequestedFor(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(other))));
    }
}
