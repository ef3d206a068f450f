package dev.voiceplane.telephony.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.BasicCredentials;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** /internal/phone-number for call-service: a number's configuration, dialling out, hanging up. */
@QuarkusTest
class InternalRoutesTest {

    @InjectWireMock
    WireMockServer wm;

    static String dial(String callId, String customer, String extra) {
        return "{\"callId\":\"" + callId + "\",\"customer\":{\"number\":\"" + customer + "\"}" + extra + "}";
    }

    @Test
    void theConfigurationIsTheNumberWithoutItsCarrierSecret() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA(),
                "\"serverUrl\":\"https://hooks.example.com/x\",\"serverUrlSecret\":\"s3\"");
        internal(TestKeys.ORG_A).when().get("/internal/phone-number/" + number.id())
                .then().statusCode(200)
                .body("id", equalTo(number.id()))
                .body("orgId", equalTo(TestKeys.ORG_A))
                .body("carrier", equalTo("twilio"))
                .body("number", equalTo(number.number()))
                .body("serverUrl", equalTo("https://hooks.example.com/x"))
                .body("serverUrlSecret", equalTo("s3"))
                .body("twilioAccountSid", equalTo(number.accountSid()))
                .body("$", not(hasKey("twilioAuthToken")));
        internal(TestKeys.ORG_B).when().get("/internal/phone-number/" + number.id()).then().statusCode(404);
        orgA().when().get("/internal/phone-number/" + number.id()).then().statusCode(401);
    }

    @Test
    void aDialPlacesATwilioCallWithTheStreamStatusCallbacksAndMachineDetectionOnce() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callId = newId();
        String callSid = "CA" + newId().replace("-", "");
        wm.stubFor(post(urlEqualTo(Stubs.accountPath(number.accountSid()) + "/Calls.json"))
                .withBasicAuth(number.accountSid(), number.authToken())
                .withRequestBody(containing(callId))
                .atPriority(1)
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"sid\":\"" + callSid + "\",\"status\":\"queued\",\"direction\":\"outbound-api\"}")));
        String body = dial(callId, "+14155550100", ",\"voicemailDetection\":{\"provider\":\"twilio\",\"enabled\":true,"
                + "\"voicemailDetectionTypes\":[\"machine_end_beep\"],\"machineDetectionTimeout\":30,"
                + "\"machineDetectionSpeechThreshold\":2400},\"maxDurationSeconds\":600");

        internal(TestKeys.ORG_A).body(body).when().post("/internal/phone-number/" + number.id() + "/dial")
                .then().statusCode(201)
                .body("callId", equalTo(callId))
                .body("phoneCallProvider", equalTo("twilio"))
                .body("phoneCallProviderId", equalTo(callSid))
                .body("phoneCallProviderDetails.to", equalTo("+14155550100"))
                .body("phoneCallProviderDetails.from", equalTo(number.number()))
                .body("phoneCallProviderDetails.machineDetection", equalTo("DetectMessageEnd"));

        String amd = Stubs.PUBLIC + "/twilio/amd?phoneNumberId=" + number.id() + "&callId=" + callId;
        wm.verify(1, postRequestedFor(urlEqualTo(Stubs.accountPath(number.accountSid()) + "/Calls.json"))
                .withBasicAuth(new BasicCredentials(number.accountSid(), number.authToken()))
                .withFormParam("To", WireMock.equalTo("+14155550100"))
                .withFormParam("From", WireMock.equalTo(number.number()))
                // The stream carries the call's media token (kit MediaTokens), sealed for this call and organisation.
                .withFormParam("Twiml", WireMock.matching(java.util.regex.Pattern.quote(
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Connect>"
                        + "<Stream url=\"wss://runtime.example.com/stream\"><Parameter name=\"callId\" value=\"" + callId
                        + "\"/><Parameter name=\"orgId\" value=\"" + TestKeys.ORG_A + "\"/><Parameter name=\"token\" value=\"v1."
                        + callId + ".") + "[A-Za-z0-9_-]+\\.[0-9]+\\.[A-Za-z0-9_-]{43}"
                        + java.util.regex.Pattern.quote("\"/></Stream></Connect></Response>")))
                .withFormParam("StatusCallback", WireMock.equalTo(Stubs.PUBLIC + "/twilio/status?callId=" + callId))
                .withFormParam("StatusCallbackMethod", WireMock.equalTo("POST"))
                .withFormParam("StatusCallbackEvent", WireMock.havingExactly("initiated", "ringing", "answered", "completed"))
                .withFormParam("MachineDetection", WireMock.equalTo("DetectMessageEnd"))
                .withFormParam("AsyncAmd", WireMock.equalTo("true"))
                .withFormParam("AsyncAmdStatusCallback", WireMock.equalTo(amd))
                .withFormParam("MachineDetectionTimeout", WireMock.equalTo("30"))
                .withFormParam("MachineDetectionSpeechThreshold", WireMock.equalTo("2400"))
                .withFormParam("TimeLimit", WireMock.equalTo("600")));

        // A retry with the same call id gets the same call, and Twilio is not asked again.
        internal(TestKeys.ORG_A).body(body).when().post("/internal/phone-number/" + number.id() + "/dial")
                .then().statusCode(200).body("phoneCallProviderId", equalTo(callSid));
        wm.verify(1, postRequestedFor(urlEqualTo(Stubs.accountPath(number.accountSid()) + "/Calls.json"))
                .withRequestBody(containing(callId)));
    }

    @Test
    void aCarrierRefusalIsA422WithItsReasonAndFreesTheCallId() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callId = newId();
        wm.stubFor(post(urlEqualTo(Stubs.accountPath(number.accountSid()) + "/Calls.json"))
                .withRequestBody(containing(callId))
                .atPriority(1)
                .willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                        .withBody("{\"code\":21211,\"message\":\"Invalid 'To' Phone Number\",\"status\":400}")));
        internal(TestKeys.ORG_A).body(dial(callId, "+19999999999", ""))
                .when().post("/internal/phone-number/" + number.id() + "/dial")
                .then().statusCode(422)
                .body("statusCode", equalTo(422))
                .body("message", equalTo("twilio refused: Invalid 'To' Phone Number (code 21211)"));
        internal(TestKeys.ORG_A).body(dial(callId, "+19999999999", ""))
                .when().post("/internal/phone-number/" + number.id() + "/dial")
                .then().statusCode(422);
        wm.verify(2, postRequestedFor(urlEqualTo(Stubs.accountPath(number.accountSid()) + "/Calls.json"))
                .withRequestBody(containing(callId)));
    }

    @Test
    void aDialIsValidatedAndScopedToTheOrganisation() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        internal(TestKeys.ORG_A).body("{\"customer\":{\"number\":\"12\"},\"x\":1}")
                .when().post("/internal/phone-number/" + number.id() + "/dial")
                .then().statusCode(400)
                .body("message", contains("property x should not exist"));
        internal(TestKeys.ORG_A).body("{\"customer\":{\"number\":\"12\"}}")
                .when().post("/internal/phone-number/" + number.id() + "/dial")
                .then().statusCode(400)
                .body("message", contains("callId should not be empty",
                        "customer.number must be a valid phone number in the E.164 format"));
        internal(TestKeys.ORG_A).body(dial(newId(), "+14155550100",
                        ",\"voicemailDetection\":{\"provider\":\"twilio\",\"machineDetectionTimeout\":100}"))
                .when().post("/internal/phone-number/" + number.id() + "/dial")
                .then().statusCode(400)
                .body("message", contains("voicemailDetection.machineDetectionTimeout must not be greater than 59"));
        internal(TestKeys.ORG_B).body(dial(newId(), "+14155550100", ""))
                .when().post("/internal/phone-number/" + number.id() + "/dial")
                .then().statusCode(404);
    }

    @Test
    void aHangupEndsTheTwilioCall() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callSid = "CA" + newId().replace("-", "");
        wm.stubFor(post(urlEqualTo(Stubs.accountPath(number.accountSid()) + "/Calls/" + callSid + ".json"))
                .withBasicAuth(number.accountSid(), number.authToken())
                .atPriority(1)
                .willReturn(okJson("{\"sid\":\"" + callSid + "\",\"status\":\"completed\"}")));
        internal(TestKeys.ORG_A).body("{\"phoneCallProviderId\":\"" + callSid + "\"}")
                .when().post("/internal/phone-number/" + number.id() + "/hangup")
                .then().statusCode(200).body("ended", equalTo(true));
        wm.verify(1, postRequestedFor(urlEqualTo(Stubs.accountPath(number.accountSid()) + "/Calls/" + callSid + ".json"))
                .withFormParam("Status", WireMock.equalTo("completed")));
    }
}
