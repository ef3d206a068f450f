package dev.voiceplane.telephony.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.BasicCredentials;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import dev.voiceplane.telephony.service.CarrierAnswer;
import dev.voiceplane.telephony.service.VonageWebhooks;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.interfaces.RSAPublicKey;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Vonage: importing through an application, signed answer and event webhooks, dialling with the application key. */
@QuarkusTest
class VonageTest {

    @InjectWireMock
    WireMockServer wm;

    @Inject
    VonageWebhooks webhooks;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    dev.voiceplane.telephony.service.LegacyAccounts legacyAccounts;

    record Account(String credentialId, String apiKey, String apiSecret, String signatureSecret, KeyPair keys) {
    }

    Account account(boolean withSignatureSecret) throws Exception {
        String credentialId = newId();
        String apiKey = "k" + newId().substring(0, 8);
        String apiSecret = "s-" + newId();
        String signatureSecret = "sig-" + newId() + newId();
        wm.stubFor(get(urlEqualTo("/internal/credential/" + credentialId + "/secret"))
                .willReturn(okJson("{\"id\":\"" + credentialId + "\",\"provider\":\"vonage\",\"apiKey\":\"" + apiKey
                        + "\",\"apiSecret\":\"" + apiSecret + "\""
                        + (withSignatureSecret ? ",\"signatureSecret\":\"" + signatureSecret + "\"" : "") + "}")));
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return new Account(credentialId, apiKey, apiSecret, signatureSecret, generator.generateKeyPair());
    }

    String importNumber(Account account, String number) {
        return importNumber(account, number, null);
    }

    /** {@code earlierApplication}: the application Vonage says the number is linked to before the import. */
    String importNumber(Account account, String number, String earlierApplication) {
        String msisdn = number.substring(1);
        String appId = "app-" + newId();
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(account.keys().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        wm.stubFor(get(urlPathEqualTo("/account/numbers"))
                .withQueryParam("api_key", WireMock.equalTo(account.apiKey()))
                .withQueryParam("api_secret", WireMock.equalTo(account.apiSecret()))
                .withQueryParam("pattern", WireMock.equalTo(msisdn))
                .willReturn(okJson("{\"count\":1,\"numbers\":[{\"country\":\"GB\",\"msisdn\":\"" + msisdn + "\""
                        + (earlierApplication == null ? "" : ",\"app_id\":\"" + earlierApplication + "\"") + "}]}")));
        wm.stubFor(post(urlEqualTo("/v2/applications"))
                .withBasicAuth(account.apiKey(), account.apiSecret())
                .withRequestBody(matchingJsonPath("$.name", WireMock.equalTo("voiceplane " + number)))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"id\":\"" + appId + "\",\"keys\":{\"private_key\":" + quote(pem) + "}}")));
        wm.stubFor(post(urlEqualTo("/number/update"))
                .withRequestBody(WireMock.containing("msisdn=" + msisdn))
                .willReturn(okJson("{\"error-code\":\"200\",\"error-code-label\":\"success\"}")));
        String id = orgA().body("{\"vonagePhoneNumber\":\"" + number + "\",\"credentialId\":\"" + account.credentialId() + "\"}")
                .when().post("/phone-number/import/vonage")
                .then().statusCode(201)
                .body("provider", equalTo("vonage"))
                .body("credentialId", equalTo(account.credentialId()))
                .extract().path("id");
        wm.verify(postRequestedFor(urlEqualTo("/v2/applications"))
                .withBasicAuth(new BasicCredentials(account.apiKey(), account.apiSecret()))
                .withRequestBody(equalToJson("{\"name\":\"voiceplane " + number + "\",\"capabilities\":{\"voice\":{"
                        + "\"webhooks\":{\"answer_url\":{\"address\":\"" + Stubs.PUBLIC + "/vonage/answer\",\"http_method\":\"POST\"},"
                        + "\"event_url\":{\"address\":\"" + Stubs.PUBLIC + "/vonage/event\",\"http_method\":\"POST\"}},"
                        + "\"signed_callbacks\":true}}}")));
        wm.verify(postRequestedFor(urlEqualTo("/number/update"))
                .withFormParam("api_key", WireMock.equalTo(account.apiKey()))
                .withFormParam("api_secret", WireMock.equalTo(account.apiSecret()))
                .withFormParam("country", WireMock.equalTo("GB"))
                .withFormParam("msisdn", WireMock.equalTo(msisdn))
                .withFormParam("app_id", WireMock.equalTo(appId)));
        return id;
    }

    static String quote(String text) {
        return "\"" + text.replace("\r", "").replace("\n", "\\n") + "\"";
    }

    String signed(Account account, byte[] body, Date issued) throws Exception {
        return "Bearer " + JWT.create().withIssuedAt(issued).withJWTId(newId()).withClaim("api_key", account.apiKey())
                .withClaim("payload_hash", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)))
                .sign(Algorithm.HMAC256(account.signatureSecret()));
    }

    @Test
    void aVonageNumberIsImportedThroughItsOwnApplicationAndReleasedOnDelete() throws Exception {
        Account account = account(true);
        String number = "+4477009" + (100000 + (int) (Math.random() * 800000));
        String id = importNumber(account, number);
        wm.stubFor(WireMock.delete(urlPathEqualTo("/v2/applications/" + "x")).willReturn(aResponse().withStatus(204)));
        wm.stubFor(WireMock.delete(WireMock.urlPathMatching("/v2/applications/app-.*")).willReturn(aResponse().withStatus(204)));
        orgA().when().delete("/phone-number/" + id).then().statusCode(200);
        wm.verify(postRequestedFor(urlEqualTo("/number/update"))
                .withFormParam("msisdn", WireMock.equalTo(number.substring(1)))
                .withFormParam("app_id", WireMock.equalTo("")));
        wm.verify(1, deleteRequestedFor(WireMock.urlPathMatching("/v2/applications/app-.*"))
                .withBasicAuth(new BasicCredentials(account.apiKey(), account.apiSecret())));
    }

    @Test
    void deletingANumberLinksItBackToItsEarlierApplication() throws Exception {
        Account account = account(true);
        String number = "+4477004" + (100000 + (int) (Math.random() * 800000));
        String earlier = "earlier-" + newId();
        String id = importNumber(account, number, earlier);
        wm.stubFor(WireMock.delete(WireMock.urlPathMatching("/v2/applications/app-.*")).willReturn(aResponse().withStatus(204)));
        orgA().when().delete("/phone-number/" + id).then().statusCode(200);
        wm.verify(1, postRequestedFor(urlEqualTo("/number/update"))
                .withFormParam("msisdn", WireMock.equalTo(number.substring(1)))
                .withFormParam("country", WireMock.equalTo("GB"))
                .withFormParam("app_id", WireMock.equalTo(earlier)));
        wm.verify(0, postRequestedFor(urlEqualTo("/number/update"))
                .withFormParam("msisdn", WireMock.equalTo(number.substring(1)))
                .withFormParam("app_id", WireMock.equalTo("")));
        wm.verify(1, deleteRequestedFor(WireMock.urlPathMatching("/v2/applications/app-.*"))
                .withBasicAuth(new BasicCredentials(account.apiKey(), account.apiSecret())));
        wm.verify(0, deleteRequestedFor(urlPathEqualTo("/v2/applications/" + earlier)));
    }

    @Test
    void anEarlierApplicationVonageNoLongerTakesLeavesTheNumberUnlinked() throws Exception {
        Account account = account(true);
        String number = "+4477003" + (100000 + (int) (Math.random() * 800000));
        String earlier = "gone-" + newId();
        String id = importNumber(account, number, earlier);
        wm.stubFor(post(urlEqualTo("/number/update")).withFormParam("app_id", WireMock.equalTo(earlier))
                .willReturn(okJson("{\"error-code\":\"420\",\"error-code-label\":\"Invalid application\"}")));
        wm.stubFor(WireMock.delete(WireMock.urlPathMatching("/v2/applications/app-.*")).willReturn(aResponse().withStatus(204)));
        orgA().when().delete("/phone-number/" + id).then().statusCode(200);
        wm.verify(1, postRequestedFor(urlEqualTo("/number/update"))
                .withFormParam("msisdn", WireMock.equalTo(number.substring(1)))
                .withFormParam("app_id", WireMock.equalTo(earlier)));
        wm.verify(1, postRequestedFor(urlEqualTo("/number/update"))
                .withFormParam("msisdn", WireMock.equalTo(number.substring(1)))
                .withFormParam("app_id", WireMock.equalTo("")));
        wm.verify(1, deleteRequestedFor(WireMock.urlPathMatching("/v2/applications/app-.*"))
                .withBasicAuth(new BasicCredentials(account.apiKey(), account.apiSecret())));
    }

    @Test
    void aCredentialThatIsNotVonagesIsA400AndNothingIsStored() throws Exception {
        String credentialId = newId();
        wm.stubFor(get(urlEqualTo("/internal/credential/" + credentialId + "/secret"))
                .willReturn(okJson("{\"id\":\"" + credentialId + "\",\"provider\":\"openai\",\"apiKey\":\"x\"}")));
        String number = "+4477008" + (100000 + (int) (Math.random() * 800000));
        orgA().body("{\"vonagePhoneNumber\":\"" + number + "\",\"credentialId\":\"" + credentialId + "\"}")
                .when().post("/phone-number/import/vonage").then().statusCode(400)
                .body("message", contains("credentialId " + credentialId + " is not a vonage credential of this organisation"));
        String unknown = newId();
        wm.stubFor(get(urlEqualTo("/internal/credential/" + unknown + "/secret")).willReturn(aResponse().withStatus(404)));
        orgA().body("{\"vonagePhoneNumber\":\"" + number + "\",\"credentialId\":\"" + unknown + "\"}")
                .when().post("/phone-number/import/vonage").then().statusCode(400);
        String failing = newId();
        wm.stubFor(get(urlEqualTo("/internal/credential/" + failing + "/secret")).willReturn(aResponse().withStatus(500)));
        orgA().body("{\"vonagePhoneNumber\":\"" + number + "\",\"credentialId\":\"" + failing + "\"}")
                .when().post("/phone-number/import/vonage").then().statusCode(503);
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from telephony.phone_numbers where number = ?", number));
        wm.verify(0, getRequestedFor(urlPathEqualTo("/account/numbers")).withQueryParam("pattern", WireMock.equalTo(number.substring(1))));
    }

    @Test
    void theApiKeyIsStoredSealedAndStillSelectsTheNumbersWebhooks() throws Exception {
        Account account = account(true);
        String number = "+4477006" + (100000 + (int) (Math.random() * 800000));
        String id = importNumber(account, number);
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from telephony.phone_numbers p where p::text like ?",
                "%" + account.apiKey() + "%"), "the vonage API key is stored in clear");
        assertEquals(1, TestDatabase.count(dataSource, "select count(*) from telephony.phone_numbers where id = ?::uuid"
                + " and carrier_account like 'sealed:v1:%'", id));
        String uuid = "uuid-" + newId();
        wm.stubFor(post(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(uuid)))
                .willReturn(okJson("{\"callId\":\"call-" + uuid + "\",\"answer\":\"connect\"}")));
        byte[] body = ("{\"to\":\"" + number.substring(1) + "\",\"from\":\"447700900001\",\"uuid\":\"" + uuid
                + "\",\"conversation_uuid\":\"CON-1\"}").getBytes(StandardCharsets.UTF_8);
        assertEquals(200, webhooks.answer(body, signed(account, body, new Date())).status());
        // Signed with the account's secret but naming another API key: not this number's webhook.
        Account other = new Account(account.credentialId(), account.apiKey() + "x", account.apiSecret(),
                account.signatureSecret(), account.keys());
        byte[] event = ("{\"to\":\"" + number.substring(1) + "\",\"from\":\"447700900001\",\"uuid\":\"" + uuid
                + "\",\"status\":\"ringing\",\"direction\":\"inbound\"}").getBytes(StandardCharsets.UTF_8);
        assertEquals(403, webhooks.event(event, signed(other, event, new Date())).status());

        // A row written before the key was sealed keeps matching, and is sealed at the next start.
        String plain = account.apiKey();
        try (java.sql.Connection connection = dataSource.getConnection();
                java.sql.PreparedStatement update = connection.prepareStatement(
                        "update telephony.phone_numbers set carrier_account = ? where id = ?::uuid")) {
            update.setString(1, plain);
            update.setString(2, id);
            assertEquals(1, update.executeUpdate());
        }
        String again = "uuid-" + newId();
        wm.stubFor(post(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(again)))
                .willReturn(okJson("{\"callId\":\"call-" + again + "\",\"answer\":\"connect\"}")));
        byte[] legacy = new String(body, StandardCharsets.UTF_8).replace(uuid, again).getBytes(StandardCharsets.UTF_8);
        assertEquals(200, webhooks.answer(legacy, signed(account, legacy, new Date())).status());
        assertTrue(io.quarkus.narayana.jta.QuarkusTransaction.requiringNew().call(legacyAccounts::seal) >= 1);
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from telephony.phone_numbers p where p::text like ?",
                "%" + plain + "%"), "the legacy row was not sealed");
        String third = "uuid-" + newId();
        wm.stubFor(post(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(third)))
                .willReturn(okJson("{\"callId\":\"call-" + third + "\",\"answer\":\"connect\"}")));
        byte[] sealedAgain = new String(body, StandardCharsets.UTF_8).replace(uuid, third).getBytes(StandardCharsets.UTF_8);
        assertEquals(200, webhooks.answer(sealedAgain, signed(account, sealedAgain, new Date())).status());
    }

    @Test
    void aSignedAnswerWebhookConnectsTheCallAndAForgedOneIsRefused() throws Exception {
        Account account = account(true);
        String number = "+4477007" + (100000 + (int) (Math.random() * 800000));
        String id = importNumber(account, number);
        String uuid = "uuid-" + newId();
        wm.stubFor(post(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(uuid)))
                .willReturn(okJson("{\"callId\":\"call-" + uuid + "\",\"answer\":\"connect\"}")));
        byte[] body = ("{\"to\":\"" + number.substring(1) + "\",\"from\":\"447700900001\",\"uuid\":\"" + uuid
                + "\",\"conversation_uuid\":\"CON-1\"}").getBytes(StandardCharsets.UTF_8);

        CarrierAnswer answer = webhooks.answer(body, signed(account, body, new Date()));

        assertEquals(200, answer.status());
        assertEquals("[{\"action\":\"connect\",\"endpoint\":[{\"type\":\"websocket\",\"uri\":\"wss://runtime.example.com/stream\","
                + "\"content-type\":\"audio/l16;rate=16000\",\"headers\":{\"callId\":\"call-" + uuid + "\",\"orgId\":\""
                + TestKeys.ORG_A + "\"}}]}]", answer.body());
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/inbound"))
                .withHeader("X-Voice-Org-Id", WireMock.equalTo(TestKeys.ORG_A))
                .withRequestBody(matchingJsonPath("$.phoneNumber.id", WireMock.equalTo(id)))
                .withRequestBody(matchingJsonPath("$.customer.number", WireMock.equalTo("+447700900001"))));

        byte[] tampered = new String(body, StandardCharsets.UTF_8).replace("447700900001", "447700900666")
                .getBytes(StandardCharsets.UTF_8);
        assertEquals(403, webhooks.answer(tampered, signed(account, body, new Date())).status());
        assertEquals(403, webhooks.answer(body, null).status());
        assertEquals(403, webhooks.answer(body, signed(account, body, new Date(System.currentTimeMillis() - 600_000))).status());
        assertEquals(1, wm.findAll(postRequestedFor(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(uuid)))).size());
    }

    /**
     * What the voice runtime needs of the NCCO (docs/voice-runtime.md, "Vonage media"): a websocket to the stream URL
     * in the one format it takes, PCM16 at 16 kHz, and headers (repeated in Vonage's {@code websocket:connected})
     * naming the call and its organisation and carrying the call's media token, without which no media is accepted.
     */
    @Test
    void anInboundCallsWebsocketCarriesWhatTheVoiceRuntimeChecks() throws Exception {
        Account account = account(true);
        String number = "+4477003" + (100000 + (int) (Math.random() * 800000));
        importNumber(account, number);
        String uuid = "uuid-" + newId();
        String callId = newId();
        wm.stubFor(post(urlEqualTo("/internal/call/inbound"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(uuid)))
                .willReturn(okJson("{\"callId\":\"" + callId + "\",\"answer\":\"connect\"}")));
        byte[] body = ("{\"to\":\"" + number.substring(1) + "\",\"from\":\"447700900001\",\"uuid\":\"" + uuid
                + "\",\"conversation_uuid\":\"CON-1\"}").getBytes(StandardCharsets.UTF_8);

        CarrierAnswer answer = webhooks.answer(body, signed(account, body, new Date()));

        assertEquals(200, answer.status());
        assertTrue(answer.body().matches("\\[\\{\"action\":\"connect\",\"endpoint\":\\[\\{\"type\":\"websocket\","
                + "\"uri\":\"wss://runtime\\.example\\.com/stream\",\"content-type\":\"audio/l16;rate=16000\","
                + "\"headers\":\\{\"callId\":\"" + callId + "\",\"orgId\":\"" + TestKeys.ORG_A + "\",\"token\":\"v1\\."
                + callId + "\\.[A-Za-z0-9_-]+\\.[0-9]+\\.[A-Za-z0-9_-]{43}\"\\}\\}\\]\\}\\]"), answer.body());
        String token = answer.body().replaceAll(".*\"token\":\"([^\"]+)\".*", "$1");
        var grant = new dev.voiceplane.kit.auth.MediaTokens(TestKeys.MEDIA_TOKEN_KEY).verify(token,
                java.time.Instant.now());
        assertEquals(callId, grant.callId().toString(), "the token is the call's");
        assertEquals(TestKeys.ORG_A, grant.orgId(), "and its organisation's");
    }

    @Test
    void withoutASignatureSecretInTheCredentialWebhooksAreRefused() throws Exception {
        Account account = account(false);
        String number = "+4477006" + (100000 + (int) (Math.random() * 800000));
        importNumber(account, number);
        byte[] body = ("{\"to\":\"" + number.substring(1) + "\",\"from\":\"447700900001\",\"uuid\":\"u\"}")
                .getBytes(StandardCharsets.UTF_8);
        assertEquals(403, webhooks.answer(body, signed(account, body, new Date())).status());
    }

    @Test
    void anEventIsHandedToCallServiceAndADialIsSignedWithTheApplicationKey() throws Exception {
        Account account = account(true);
        String number = "+4477005" + (100000 + (int) (Math.random() * 800000));
        String id = importNumber(account, number);
        String uuid = "uuid-" + newId();
        wm.stubFor(post(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.phoneCallProviderId", WireMock.equalTo(uuid)))
                .willReturn(okJson("{\"recorded\":true}")));
        byte[] event = ("{\"from\":\"" + number.substring(1) + "\",\"to\":\"447700900002\",\"uuid\":\"" + uuid
                + "\",\"status\":\"machine\",\"direction\":\"outbound\",\"timestamp\":\"2024-09-10T12:00:00.000Z\"}")
                .getBytes(StandardCharsets.UTF_8);
        assertEquals(204, webhooks.event(event, signed(account, event, new Date())).status());
        wm.verify(1, postRequestedFor(urlEqualTo("/internal/call/events"))
                .withRequestBody(matchingJsonPath("$.eventId", WireMock.equalTo("vonage:" + uuid + ":machine:2024-09-10T12:00:00.000Z")))
                .withRequestBody(matchingJsonPath("$.type", WireMock.equalTo("answered-by")))
                .withRequestBody(matchingJsonPath("$.answeredBy", WireMock.equalTo("machine"))));

        String callId = newId();
        wm.stubFor(post(urlEqualTo("/v1/calls")).withRequestBody(WireMock.containing(callId))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"uuid\":\"out-" + callId + "\",\"status\":\"started\",\"direction\":\"outbound\"}")));
        dev.voiceplane.kit.testing.TestClients.internal(TestKeys.ORG_A)
                .body("{\"callId\":\"" + callId + "\",\"customer\":{\"number\":\"+447700900003\"}}")
                .when().post("/internal/phone-number/" + id + "/dial")
                .then().statusCode(201).body("phoneCallProviderId", equalTo("out-" + callId));
        LoggedRequest dial = wm.findAll(postRequestedFor(urlEqualTo("/v1/calls")).withRequestBody(WireMock.containing(callId))).getFirst();
        String jwt = dial.getHeader("Authorization").substring("Bearer ".length());
        JWT.require(Algorithm.RSA256((RSAPublicKey) account.keys().getPublic(), null)).build().verify(jwt);
        assertTrue(dial.getBodyAsString().contains("\"number\":\"447700900003\""), dial.getBodyAsString());
        // The websocket's headers name the call and carry its media token (kit MediaTokens).
        assertTrue(dial.getBodyAsString().matches(".*\"headers\":\\{\"callId\":\"" + callId + "\",\"orgId\":\""
                + TestKeys.ORG_A + "\",\"token\":\"v1\\." + callId + "\\.[A-Za-z0-9_-]+\\.[0-9]+\\.[A-Za-z0-9_-]{43}\"}.*"),
                dial.getBodyAsString());
        assertTrue(dial.getBodyAsString().contains("\"event_url\":[\"" + Stubs.PUBLIC + "/vonage/event\"]"), dial.getBodyAsString());
    }

    @Test
    void aSignedEventOrAnswerThatCanNeverBeAppliedIsAcknowledgedAndNotHandedOn() throws Exception {
        Account account = account(true);
        String number = "+4477004" + (100000 + (int) (Math.random() * 800000));
        importNumber(account, number);
        int eventsBefore = wm.findAll(postRequestedFor(urlEqualTo("/internal/call/events"))).size();
        int opensBefore = wm.findAll(postRequestedFor(urlEqualTo("/internal/call/inbound"))).size();

        for (String uuid : java.util.List.of("   ", "u".repeat(10_000), "uuid-\\u0000-" + newId())) {
            byte[] event = ("{\"from\":\"447700900002\",\"to\":\"" + number.substring(1) + "\",\"uuid\":\"" + uuid
                    + "\",\"status\":\"completed\",\"direction\":\"inbound\"}").getBytes(StandardCharsets.UTF_8);
            CarrierAnswer answer = webhooks.event(event, signed(account, event, new Date()));
            assertEquals(204, answer.status(), "an event whose uuid is " + uuid.length() + " characters");
        }
        byte[] oddStatus = ("{\"from\":\"447700900002\",\"to\":\"" + number.substring(1) + "\",\"uuid\":\"uuid-"
                + newId() + "\",\"status\":\"" + "s".repeat(500) + "\",\"direction\":\"inbound\"}")
                .getBytes(StandardCharsets.UTF_8);
        assertEquals(204, webhooks.event(oddStatus, signed(account, oddStatus, new Date())).status());
        for (String uuid : java.util.List.of("", "   ", "u".repeat(10_000))) {
            byte[] answerBody = ("{\"to\":\"" + number.substring(1) + "\",\"from\":\"447700900001\",\"uuid\":\"" + uuid
                    + "\"}").getBytes(StandardCharsets.UTF_8);
            CarrierAnswer answer = webhooks.answer(answerBody, signed(account, answerBody, new Date()));
            assertEquals(200, answer.status(), "an answer webhook whose uuid is " + uuid.length() + " characters");
            assertTrue(answer.body().contains("\"action\":\"talk\""), answer.body());
        }

        assertEquals(eventsBefore, wm.findAll(postRequestedFor(urlEqualTo("/internal/call/events"))).size(),
                "call-service was handed events it could never record");
        assertEquals(opensBefore, wm.findAll(postRequestedFor(urlEqualTo("/internal/call/inbound"))).size(),
                "call-service was asked to open calls it could never open");
    }

    /**
     * A transfer (docs/call-contracts.md §6) puts the live leg on an NCCO that connects it to the destination from
     * the number, signed with the number's application key; a retry does not transfer it twice.
     */
    @Test
    void aTransferMovesTheLegToAConnectToThePhoneSignedWithTheApplicationKey() throws Exception {
        Account account = account(true);
        String number = "+4477005" + (100000 + (int) (Math.random() * 800000));
        String id = importNumber(account, number);
        String uuid = "uuid-" + newId();
        wm.stubFor(com.github.tomakehurst.wiremock.client.WireMock.put(urlEqualTo("/v1/calls/" + uuid))
                .willReturn(aResponse().withStatus(204)));
        String body = "{\"phoneCallProviderId\":\"" + uuid + "\",\"number\":\"+447700900004\"}";
        for (int attempt = 0; attempt < 2; attempt++) {
            dev.voiceplane.kit.testing.TestClients.internal(TestKeys.ORG_A).body(body)
                    .when().post("/internal/phone-number/" + id + "/transfer")
                    .then().statusCode(200)
                    .body("phoneCallProvider", equalTo("vonage"))
                    .body("forwardedPhoneNumber", equalTo("+447700900004"));
        }
        java.util.List<LoggedRequest> transfers = wm.findAll(
                com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor(urlEqualTo("/v1/calls/" + uuid)));
        assertEquals(1, transfers.size());
        String jwt = transfers.getFirst().getHeader("Authorization").substring("Bearer ".length());
        JWT.require(Algorithm.RSA256((RSAPublicKey) account.keys().getPublic(), null)).build().verify(jwt);
        com.fasterxml.jackson.databind.JsonNode sent = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(transfers.getFirst().getBodyAsString());
        assertEquals(new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"action\":\"transfer\","
                + "\"destination\":{\"type\":\"ncco\",\"ncco\":[{\"action\":\"connect\",\"from\":\"" + number.substring(1)
                + "\",\"endpoint\":[{\"type\":\"phone\",\"number\":\"447700900004\"}]}]}}"), sent);
    }
}
