package dev.voiceplane.telephony.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.BasicCredentials;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import dev.voiceplane.telephony.carrier.TwilioSignature;
import dev.voiceplane.telephony.service.TwilioWebhooks;
import dev.voiceplane.telephony.service.VonageWebhooks;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /internal/phone-number/dial-inline}: a dial from a number given inline, its answers (as a dial's), and
 * the verification of its later carrier callbacks with what was kept per call id.
 */
@QuarkusTest
class InlineDialTest {

    @InjectWireMock
    WireMockServer wm;

    @Inject
    TwilioWebhooks twilioWebhooks;

    @Inject
    VonageWebhooks vonageWebhooks;

    @Inject
    AgroalDataSource dataSource;

    record Twilio(String number, String accountSid, String authToken) {
        String phoneNumber() {
            return "{\"provider\":\"twilio\",\"number\":\"" + number + "\",\"twilioAccountSid\":\"" + accountSid
                    + "\",\"twilioAuthToken\":\"" + authToken + "\"}";
        }
    }

    static Twilio twilio() {
        return new Twilio(Stubs.newNumber(), Stubs.newAccountSid(), "inline-token-" + newId());
    }

    static String dialInline(String callId, String customer, String phoneNumber) {
        return "{\"callId\":\"" + callId + "\",\"customer\":{\"number\":\"" + customer + "\"},\"maxDurationSeconds\":600,"
                + "\"phoneNumber\":" + phoneNumber + "}";
    }

    String twilioAccepts(Twilio account, String callId) {
        String callSid = "CA" + newId().replace("-", "");
        wm.stubFor(post(urlEqualTo(Stubs.accountPath(account.accountSid()) + "/Calls.json"))
                .withBasicAuth(account.accountSid(), account.authToken())
                .withRequestBody(containing(callId))
                .atPriority(1)
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"sid\":\"" + callSid + "\",\"status\":\"queued\"}")));
        return callSid;
    }

    @Test
    void aTwilioNumberGivenInlineIsDialledOnceAndItsStatusCallbacksVerify() throws Exception {
        Twilio account = twilio();
        String callId = newId();
        String callSid = twilioAccepts(account, callId);
        String body = dialInline(callId, "+14155550100", account.phoneNumber());

        internal(TestKeys.ORG_A).body(body).when().post("/internal/phone-number/dial-inline")
                .then().statusCode(201)
                .body("callId", equalTo(callId))
                .body("phoneCallProvider", equalTo("twilio"))
                .body("phoneCallProviderId", equalTo(callSid))
                .body("phoneCallProviderDetails.from", equalTo(account.number()))
                .body("phoneCallProviderDetails.statusCallback", equalTo(Stubs.PUBLIC + "/twilio/status?callId=" + callId));
        // A retry: the same answer, nothing dialled again.
        internal(TestKeys.ORG_A).body(body).when().post("/internal/phone-number/dial-inline")
                .then().statusCode(200).body("phoneCallProviderId", equalTo(callSid));
        wm.verify(1, postRequestedFor(urlEqualTo(Stubs.accountPath(account.accountSid()) + "/Calls.json"))
                .withBasicAuth(new BasicCredentials(account.accountSid(), account.authToken()))
                .withFormParam("From", WireMock.equalTo(account.number()))
                .withFormParam("To", WireMock.equalTo("+14155550100"))
                .withFormParam("TimeLimit", WireMock.equalTo("600"))
                .withFormParam("StatusCallback", WireMock.equalTo(Stubs.PUBLIC + "/twilio/status?callId=" + callId))
                .withFormParam("Twiml", WireMock.containing("<Parameter name=\"callId\" value=\"" + callId
                        + "\"/><Parameter name=\"orgId\" value=\"" + TestKeys.ORG_A + "\"/>")));
        // The same call id from another number, or from another organisation's view: a conflict / a new call.
        internal(TestKeys.ORG_A).body(dialInline(callId, "+14155550100", twilio().phoneNumber()))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(409);

        // Its status callbacks are verified with the auth token kept for the call, and carry the call id.
        wm.stubFor(post(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(callSid)))
                .willReturn(okJson("{\"recorded\":true}")));
        Map<String, List<String>> params = new LinkedHashMap<>();
        params.put("AccountSid", List.of(account.accountSid()));
        params.put("CallSid", List.of(callSid));
        params.put("CallStatus", List.of("ringing"));
        params.put("Direction", List.of("outbound-api"));
        params.put("From", List.of(account.number()));
        params.put("To", List.of("+14155550100"));
        String query = "callId=" + callId;
        String signature = TwilioSignature.compute(account.authToken(), Stubs.PUBLIC + "/twilio/status?" + query, params);
        byte[] form = form(params);
        assertEquals(200, twilioWebhooks.status(query, form, signature).status());
        assertEquals(403, twilioWebhooks.status(query, form,
                TwilioSignature.compute("another-token", Stubs.PUBLIC + "/twilio/status?" + query, params)).status());
        assertEquals(403, twilioWebhooks.status("callId=" + newId(), form, signature).status());
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/events"))
                .withHeader("X-Voice-Org-Id", WireMock.equalTo(TestKeys.ORG_A))
                .withRequestBody(matchingJsonPath("$.callId", WireMock.equalTo(callId)))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(callSid))));

        // It is hung up with what was kept for it; another organisation has no such call.
        wm.stubFor(post(urlEqualTo(Stubs.accountPath(account.accountSid()) + "/Calls/" + callSid + ".json"))
                .withBasicAuth(account.accountSid(), account.authToken())
                .willReturn(okJson("{\"sid\":\"" + callSid + "\",\"status\":\"completed\"}")));
        internal(TestKeys.ORG_B).body("{\"phoneCallProviderId\":\"" + callSid + "\"}")
                .when().post("/internal/phone-number/hangup-inline").then().statusCode(404);
        internal(TestKeys.ORG_A).body("{\"phoneCallProviderId\":\"" + callSid + "\",\"phoneNumber\":" + account.phoneNumber() + "}")
                .when().post("/internal/phone-number/hangup-inline")
                .then().statusCode(200).body("ended", equalTo(true)).body("phoneCallProviderId", equalTo(callSid));
        wm.verify(1, postRequestedFor(urlEqualTo(Stubs.accountPath(account.accountSid()) + "/Calls/" + callSid + ".json"))
                .withFormParam("Status", WireMock.equalTo("completed")));

        // The auth token is kept sealed.
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select row_to_json(d)::text from telephony.inline_dials d"
                        + " where call_id = '" + callId + "'")) {
            rows.next();
            String row = rows.getString(1);
            assertFalse(row.contains(account.authToken()), row);
            assertFalse(row.contains(HexFormat.of().formatHex(account.authToken().getBytes(StandardCharsets.UTF_8))), row);
        }
    }

    @Test
    void theAnswersAreADialsBadBodiesRefusalsAndCallIdsOfImportedNumbers() {
        internal(TestKeys.ORG_A).body("{\"callId\":\"c\",\"customer\":{\"number\":\"+14155550100\"}}")
                .when().post("/internal/phone-number/dial-inline").then().statusCode(400)
                .body("message", hasItem("phoneNumber should not be null or undefined"));
        internal(TestKeys.ORG_A).body(dialInline(newId(), "+14155550100",
                        "{\"provider\":\"twilio\",\"number\":\"+1415\",\"twilioAccountSid\":\"AC1\",\"twilioAuthToken\":\"t\"}"))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(400)
                .body("message", containsInAnyOrder("phoneNumber.number must be a valid phone number in the E.164 format"));
        internal(TestKeys.ORG_A).body(dialInline(newId(), "+14155550100",
                        "{\"provider\":\"twilio\",\"number\":\"+14155550111\",\"credentialId\":\"x\"}"))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(400)
                .body("message", containsInAnyOrder("phoneNumber.twilioAccountSid should not be empty",
                        "phoneNumber.twilioAuthToken should not be empty", "property phoneNumber.credentialId should not exist"));
        internal(TestKeys.ORG_A).body(dialInline(newId(), "+14155550100",
                        "{\"provider\":\"fax\",\"number\":\"+14155550111\"}"))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(400);
        internal(TestKeys.ORG_A).body(dialInline(newId(), "+14155550100", "{\"provider\":\"twilio\",\"extra\":1}"))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(400);
        // An API key never opens an internal route.
        orgA().body(dialInline(newId(), "+14155550100", twilio().phoneNumber()))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(401);

        // The carrier refuses: 422 with its reason, and the call id is free again.
        Twilio account = twilio();
        String callId = newId();
        wm.stubFor(post(urlEqualTo(Stubs.accountPath(account.accountSid()) + "/Calls.json"))
                .willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                        .withBody("{\"code\":21211,\"message\":\"Invalid 'To' Phone Number\"}")));
        internal(TestKeys.ORG_A).body(dialInline(callId, "+14155550100", account.phoneNumber()))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(422)
                .body("message", equalTo("twilio refused: Invalid 'To' Phone Number (code 21211)"));
        String callSid = twilioAccepts(account, callId);
        internal(TestKeys.ORG_A).body(dialInline(callId, "+14155550100", account.phoneNumber()))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(201)
                .body("phoneCallProviderId", equalTo(callSid));

        // Twilio cannot be reached: 503, nothing recorded.
        Twilio failing = twilio();
        wm.stubFor(post(urlEqualTo(Stubs.accountPath(failing.accountSid()) + "/Calls.json"))
                .willReturn(aResponse().withStatus(500)));
        internal(TestKeys.ORG_A).body(dialInline(newId(), "+14155550100", failing.phoneNumber()))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(503);

        // A call id already dialled from an imported number is a conflict, either way round.
        Numbers.Imported imported = Numbers.importTwilio(wm, orgA());
        String importedCall = newId();
        wm.stubFor(post(urlEqualTo(Stubs.accountPath(imported.accountSid()) + "/Calls.json"))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"sid\":\"CA" + newId().replace("-", "") + "\"}")));
        internal(TestKeys.ORG_A).body(InternalRoutesTest.dial(importedCall, "+14155550100", ""))
                .when().post("/internal/phone-number/" + imported.id() + "/dial").then().statusCode(201);
        internal(TestKeys.ORG_A).body(dialInline(importedCall, "+14155550100", twilio().phoneNumber()))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(409);
        internal(TestKeys.ORG_A).body(InternalRoutesTest.dial(callId, "+14155550100", ""))
                .when().post("/internal/phone-number/" + imported.id() + "/dial").then().statusCode(409);
    }

    @Test
    void aVonageNumberGivenInlineIsDialledThroughAnApplicationForTheCallAndItsEventsVerify() throws Exception {
        String credentialId = newId();
        String apiKey = "k" + newId().substring(0, 8);
        String apiSecret = "s-" + newId();
        String signatureSecret = "sig-" + newId() + newId();
        wm.stubFor(get(urlEqualTo("/internal/credential/" + credentialId + "/secret"))
                .willReturn(okJson("{\"id\":\"" + credentialId + "\",\"provider\":\"vonage\",\"apiKey\":\"" + apiKey
                        + "\",\"apiSecret\":\"" + apiSecret + "\",\"signatureSecret\":\"" + signatureSecret + "\"}")));
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        String callId = newId();
        String appId = "app-" + newId();
        String uuid = "uuid-" + newId();
        wm.stubFor(post(urlEqualTo("/v2/applications")).withBasicAuth(apiKey, apiSecret)
                .withRequestBody(matchingJsonPath("$.name", WireMock.equalTo("voiceplane call " + callId)))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"id\":\"" + appId + "\",\"keys\":{\"private_key\":" + VonageTest.quote(pem) + "}}")));
        wm.stubFor(post(urlEqualTo("/v1/calls")).withRequestBody(containing(callId))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"uuid\":\"" + uuid + "\",\"status\":\"started\"}")));
        String number = "+4477002" + (100000 + (int) (Math.random() * 800000));

        internal(TestKeys.ORG_A).body(dialInline(callId, "+447700900003", "{\"provider\":\"vonage\",\"number\":\""
                        + number + "\",\"credentialId\":\"" + credentialId + "\"}"))
                .when().post("/internal/phone-number/dial-inline")
                .then().log().ifValidationFails().statusCode(201).body("phoneCallProvider", equalTo("vonage")).body("phoneCallProviderId", equalTo(uuid));
        wm.verify(1, postRequestedFor(urlEqualTo("/v1/calls")).withRequestBody(containing(callId))
                .withRequestBody(matchingJsonPath("$.from.number", WireMock.equalTo(number.substring(1)))));

        // Its events are signed with the account's signature secret and name the application created for the call.
        wm.stubFor(post(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(uuid)))
                .willReturn(okJson("{\"recorded\":true}")));
        byte[] event = ("{\"from\":\"" + number.substring(1) + "\",\"to\":\"447700900003\",\"uuid\":\"" + uuid
                + "\",\"status\":\"answered\",\"direction\":\"outbound\",\"timestamp\":\"2024-09-10T12:00:00.000Z\"}")
                .getBytes(StandardCharsets.UTF_8);
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(event));
        String token = JWT.create().withIssuedAt(new Date()).withJWTId(newId()).withClaim("api_key", apiKey)
                .withClaim("application_id", appId).withClaim("payload_hash", hash).sign(Algorithm.HMAC256(signatureSecret));
        assertEquals(204, vonageWebhooks.event(event, "Bearer " + token).status());
        // The API key is a credential secret: not in the row in clear (issue 24), and an event that names another
        // account's key, even correctly signed, is not this call's.
        assertEquals(1, dev.voiceplane.kit.testing.TestDatabase.count(dataSource,
                "select count(*) from telephony.inline_dials where call_id = ? and carrier_account like 'sealed:v1:%'", callId));
        assertEquals(0, dev.voiceplane.kit.testing.TestDatabase.count(dataSource,
                "select count(*) from telephony.inline_dials d where d::text like ?", "%" + apiKey + "%"));
        String otherAccount = JWT.create().withIssuedAt(new Date()).withJWTId(newId()).withClaim("api_key", apiKey + "x")
                .withClaim("application_id", appId).withClaim("payload_hash", hash).sign(Algorithm.HMAC256(signatureSecret));
        assertEquals(403, vonageWebhooks.event(event, "Bearer " + otherAccount).status());
        String forged = JWT.create().withIssuedAt(new Date()).withJWTId(newId()).withClaim("api_key", apiKey)
                .withClaim("application_id", appId).withClaim("payload_hash", hash).sign(Algorithm.HMAC256("x".repeat(40)));
        assertEquals(403, vonageWebhooks.event(event, "Bearer " + forged).status());
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/events"))
                .withHeader("X-Voice-Org-Id", WireMock.equalTo(TestKeys.ORG_A))
                .withRequestBody(matchingJsonPath("$.callId", WireMock.equalTo(callId)))
                .withRequestBody(matchingJsonPath("$.carrierStatus", WireMock.equalTo("answered"))));

        // The call's end releases the application created for it.
        wm.stubFor(WireMock.delete(urlEqualTo("/v2/applications/" + appId)).willReturn(aResponse().withStatus(204)));
        byte[] completed = new String(event, StandardCharsets.UTF_8).replace("\"answered\"", "\"completed\"")
                .getBytes(StandardCharsets.UTF_8);
        String completedToken = JWT.create().withIssuedAt(new Date()).withJWTId(newId()).withClaim("api_key", apiKey)
                .withClaim("application_id", appId)
                .withClaim("payload_hash", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(completed)))
                .sign(Algorithm.HMAC256(signatureSecret));
        assertEquals(0, wm.findAll(WireMock.deleteRequestedFor(urlEqualTo("/v2/applications/" + appId))).size());
        assertEquals(204, vonageWebhooks.event(completed, "Bearer " + completedToken).status());
        wm.verify(1, WireMock.deleteRequestedFor(urlEqualTo("/v2/applications/" + appId))
                .withBasicAuth(new BasicCredentials(apiKey, apiSecret)));

        // A credential that is not a vonage one of the organisation: 400, nothing dialled.
        String unknown = newId();
        wm.stubFor(get(urlEqualTo("/internal/credential/" + unknown + "/secret")).willReturn(aResponse().withStatus(404)));
        internal(TestKeys.ORG_A).body(dialInline(newId(), "+447700900003", "{\"provider\":\"vonage\",\"number\":\""
                        + number + "\",\"credentialId\":\"" + unknown + "\"}"))
                .when().post("/internal/phone-number/dial-inline").then().statusCode(400)
                .body("message", hasItem("credentialId " + unknown + " is not a vonage credential of this organisation"));
    }

    static byte[] form(Map<String, List<String>> params) {
        StringBuilder form = new StringBuilder();
        params.forEach((name, values) -> values.forEach(value -> form.append(form.isEmpty() ? "" : "&")
                .append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8))));
        return form.toString().getBytes(StandardCharsets.UTF_8);
    }
}
