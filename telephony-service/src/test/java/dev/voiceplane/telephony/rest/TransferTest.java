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

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.BasicCredentials;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /internal/phone-number/{id}/transfer} and {@code transfer-inline} (docs/call-contracts.md §6): a live
 * Twilio call is redirected to a {@code <Dial>} of the destination with the number's own caller id, once per carrier
 * call; what the fake carrier (WireMock) recorded is what Twilio would have been told. Vonage: VonageTest.
 */
@QuarkusTest
class TransferTest {

    private static final String TO = "+14155550177";

    @InjectWireMock
    WireMockServer wm;

    static String transfer(String callSid, String number) {
        return "{\"phoneCallProviderId\":\"" + callSid + "\",\"number\":\"" + number + "\"}";
    }

    static String dialTwiml(String callerId, String number) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response><Dial callerId=\"" + callerId + "\"><Number>"
                + number + "</Number></Dial></Response>";
    }

    static String newCallSid() {
        return "CA" + newId().replace("-", "");
    }

    void twilioUpdates(String accountSid, String authToken, String callSid) {
        wm.stubFor(post(urlEqualTo(Stubs.accountPath(accountSid) + "/Calls/" + callSid + ".json"))
                .withBasicAuth(accountSid, authToken)
                .atPriority(1)
                .willReturn(okJson("{\"sid\":\"" + callSid + "\",\"status\":\"in-progress\"}")));
    }

    @Test
    void aTwilioCallIsRedirectedToADialOfTheNumberOnce() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callSid = newCallSid();
        twilioUpdates(number.accountSid(), number.authToken(), callSid);
        String path = "/internal/phone-number/" + number.id() + "/transfer";

        internal(TestKeys.ORG_A).body(transfer(callSid, TO)).when().post(path)
                .then().statusCode(200)
                .body("phoneCallProvider", equalTo("twilio"))
                .body("phoneCallProviderId", equalTo(callSid))
                .body("forwardedPhoneNumber", equalTo(TO))
                .body("transferred", equalTo(true));
        wm.verify(1, postRequestedFor(urlEqualTo(Stubs.accountPath(number.accountSid()) + "/Calls/" + callSid + ".json"))
                .withBasicAuth(new BasicCredentials(number.accountSid(), number.authToken()))
                .withFormParam("Twiml", WireMock.equalTo(dialTwiml(number.number(), TO))));

        // A retry (the peer policy may send one) gets the same answer, and Twilio is not asked to dial again.
        internal(TestKeys.ORG_A).body(transfer(callSid, TO)).when().post(path)
                .then().statusCode(200).body("forwardedPhoneNumber", equalTo(TO));
        wm.verify(1, postRequestedFor(urlEqualTo(Stubs.accountPath(number.accountSid()) + "/Calls/" + callSid + ".json")));
        // The call went elsewhere already: another destination is a conflict.
        internal(TestKeys.ORG_A).body(transfer(callSid, "+14155550178")).when().post(path)
                .then().statusCode(409)
                .body("statusCode", equalTo(409))
                .body("message", equalTo("call " + callSid + " was transferred to another number"));
    }

    @Test
    void aCarrierRefusalIsA422WithItsReasonAndTheCallMayBeTransferredLater() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String callSid = newCallSid();
        String callPath = Stubs.accountPath(number.accountSid()) + "/Calls/" + callSid + ".json";
        wm.stubFor(post(urlEqualTo(callPath)).atPriority(1)
                .willReturn(aResponse().withStatus(404).withHeader("Content-Type", "application/json")
                        .withBody("{\"code\":20404,\"message\":\"The requested resource was not found\",\"status\":404}")));
        String path = "/internal/phone-number/" + number.id() + "/transfer";
        internal(TestKeys.ORG_A).body(transfer(callSid, TO)).when().post(path)
                .then().statusCode(422)
                .body("error", equalTo("Unprocessable Entity"))
                .body("message", equalTo("twilio refused: The requested resource was not found (code 20404)"));

        // Twilio failing on its side: 503, nothing recorded, so the next attempt asks Twilio again and succeeds.
        wm.stubFor(post(urlEqualTo(callPath)).atPriority(1).willReturn(aResponse().withStatus(500)));
        internal(TestKeys.ORG_A).body(transfer(callSid, TO)).when().post(path)
                .then().statusCode(503).body("statusCode", equalTo(503));
        twilioUpdates(number.accountSid(), number.authToken(), callSid);
        internal(TestKeys.ORG_A).body(transfer(callSid, TO)).when().post(path)
                .then().statusCode(200).body("transferred", equalTo(true));
    }

    @Test
    void aTransferIsValidatedAndScopedToTheOrganisation() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String path = "/internal/phone-number/" + number.id() + "/transfer";
        internal(TestKeys.ORG_A).body("{\"phoneCallProviderId\":\"CA1\",\"number\":\"4155550177\",\"x\":1}")
                .when().post(path)
                .then().statusCode(400).body("message", contains("property x should not exist"));
        internal(TestKeys.ORG_A).body("{\"number\":\"4155550177\"}").when().post(path)
                .then().statusCode(400)
                .body("error", equalTo("Bad Request"))
                .body("message", contains("number must be a valid phone number in the E.164 format",
                        "phoneCallProviderId should not be empty"));
        internal(TestKeys.ORG_A).body("{\"phoneCallProviderId\":\"CA1\"}").when().post(path)
                .then().statusCode(400).body("message", contains("number should not be null or undefined"));
        internal(TestKeys.ORG_A).when().post(path).then().statusCode(400);
        // Another organisation's number, a number that is no id, an API key instead of the service token.
        internal(TestKeys.ORG_B).body(transfer(newCallSid(), TO)).when().post(path).then().statusCode(404);
        internal(TestKeys.ORG_A).body(transfer(newCallSid(), TO)).when().post("/internal/phone-number/nope/transfer")
                .then().statusCode(404);
        orgA().body(transfer(newCallSid(), TO)).when().post(path).then().statusCode(401);
        wm.verify(0, postRequestedFor(WireMock.urlMatching(Stubs.accountPath(number.accountSid()) + "/Calls/.*")));
    }

    @Test
    void aCallDialledFromAnInlineNumberIsTransferredWithWhatWasKeptForIt() {
        InlineDialTest.Twilio account = InlineDialTest.twilio();
        String callId = newId();
        String callSid = newCallSid();
        wm.stubFor(post(urlEqualTo(Stubs.accountPath(account.accountSid()) + "/Calls.json"))
                .withBasicAuth(account.accountSid(), account.authToken())
                .withRequestBody(containing(callId))
                .atPriority(1)
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"sid\":\"" + callSid + "\",\"status\":\"queued\"}")));
        internal(TestKeys.ORG_A).body(InlineDialTest.dialInline(callId, "+14155550100", account.phoneNumber()))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(201);
        twilioUpdates(account.accountSid(), account.authToken(), callSid);

        String body = "{\"phoneCallProviderId\":\"" + callSid + "\",\"number\":\"" + TO + "\",\"phoneNumber\":"
                + account.phoneNumber() + "}";
        // Only the organisation that dialled it can transfer it.
        internal(TestKeys.ORG_B).body(body).when().post("/internal/phone-number/transfer-inline").then().statusCode(404);
        internal(TestKeys.ORG_A).body(body).when().post("/internal/phone-number/transfer-inline")
                .then().statusCode(200)
                .body("phoneCallProviderId", equalTo(callSid))
                .body("forwardedPhoneNumber", equalTo(TO));
        wm.verify(1, postRequestedFor(urlEqualTo(Stubs.accountPath(account.accountSid()) + "/Calls/" + callSid + ".json"))
                .withBasicAuth(new BasicCredentials(account.accountSid(), account.authToken()))
                .withFormParam("Twiml", WireMock.equalTo(dialTwiml(account.number(), TO))));
        internal(TestKeys.ORG_A).body(transfer(newCallSid(), TO)).when().post("/internal/phone-number/transfer-inline")
                .then().statusCode(404).body("statusCode", equalTo(404));
    }
}
