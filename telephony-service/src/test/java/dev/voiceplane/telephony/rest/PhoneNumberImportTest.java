package dev.voiceplane.telephony.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;

/** Importing twilio numbers: what the client gets, what Twilio is asked, what is stored. */
@QuarkusTest
class PhoneNumberImportTest {

    @InjectWireMock
    WireMockServer wm;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aTwilioNumberIsImportedPointedAtThePlatformAndItsTokenNeverReturned() throws Exception {
        String number = Stubs.newNumber();
        String account = Stubs.newAccountSid();
        String token = "secret-token-" + newId();
        String sid = Stubs.twilioOwns(wm, account, token, number, "https://old.example.com/voice");
        String assistant = newId();
        Stubs.assistantLookup(wm, TestKeys.ORG_A, assistant, true);

        orgA().body("{\"twilioPhoneNumber\":\"" + number + "\",\"twilioAccountSid\":\"" + account
                        + "\",\"twilioAuthToken\":\"" + token + "\",\"name\":\"Front desk\",\"assistantId\":\"" + assistant
                        + "\",\"serverUrl\":\"https://hooks.example.com/vapi\",\"serverUrlSecret\":\"shh-" + token + "\"}")
                .when().post("/phone-number/import/twilio")
                .then().statusCode(201)
                .body("id", notNullValue())
                .body("orgId", equalTo(TestKeys.ORG_A))
                .body("provider", equalTo("twilio"))
                .body("number", equalTo(number))
                .body("name", equalTo("Front desk"))
                .body("assistantId", equalTo(assistant))
                .body("twilioAccountSid", equalTo(account))
                .body("serverUrl", equalTo("https://hooks.example.com/vapi"))
                .body("$", not(hasKey("serverUrlSecret")))
                .body("createdAt", notNullValue())
                .body("$", not(hasKey("twilioAuthToken")))
                .body("$", not(hasKey("stripeSubscriptionId")));

        wm.verify(getRequestedFor(urlPathEqualTo(Stubs.accountPath(account) + "/IncomingPhoneNumbers.json"))
                .withQueryParam("PhoneNumber", WireMock.equalTo(number)).withBasicAuth(
                        new com.github.tomakehurst.wiremock.client.BasicCredentials(account, token)));
        wm.verify(postRequestedFor(urlEqualTo(Stubs.accountPath(account) + "/IncomingPhoneNumbers/" + sid + ".json"))
                .withBasicAuth(new com.github.tomakehurst.wiremock.client.BasicCredentials(account, token))
                .withHeader("Content-Type", com.github.tomakehurst.wiremock.client.WireMock.containing("application/x-www-form-urlencoded"))
                .withFormParam("VoiceUrl", WireMock.equalTo(Stubs.PUBLIC + "/twilio/inbound_call"))
                .withFormParam("VoiceMethod", WireMock.equalTo("POST"))
                .withFormParam("StatusCallback", WireMock.equalTo(Stubs.PUBLIC + "/twilio/status"))
                .withFormParam("StatusCallbackMethod", WireMock.equalTo("POST")));

        // Neither secret is stored in clear.
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement(
                        "select twilio_auth_token, server_url_secret from telephony.phone_numbers where number = ?")) {
            query.setString(1, number);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                assertFalse(new String(row.getBytes(1), StandardCharsets.ISO_8859_1).contains(token));
                assertFalse(new String(row.getBytes(2), StandardCharsets.ISO_8859_1).contains("shh-"));
            }
        }
    }

    @Test
    void theNeutralPathAndFieldWordsAreAccepted() {
        String number = Stubs.newNumber();
        String account = Stubs.newAccountSid();
        Stubs.twilioOwns(wm, account, "tok", number, null);
        orgA().body("{\"carrierAPhoneNumber\":\"" + number + "\",\"carrierAAccountSid\":\"" + account
                        + "\",\"carrierAAuthToken\":\"tok\"}")
                .when().post("/phone-number/import/carrierA")
                .then().statusCode(201).body("provider", equalTo("twilio")).body("number", equalTo(number))
                .body("twilioAccountSid", equalTo(account));
    }

    @Test
    void postPhoneNumberWithAProviderImportsToo() {
        String number = Stubs.newNumber();
        String account = Stubs.newAccountSid();
        Stubs.twilioOwns(wm, account, "tok", number, null);
        orgA().body("{\"provider\":\"twilio\",\"number\":\"" + number + "\",\"twilioAccountSid\":\"" + account
                        + "\",\"twilioAuthToken\":\"tok\",\"name\":\"Sales\"}")
                .when().post("/phone-number")
                .then().statusCode(201).body("provider", equalTo("twilio")).body("number", equalTo(number))
                .body("name", equalTo("Sales"));
    }

    @Test
    void rejectedCredentialsAreA400WithTwiliosReasonAndNothingIsStored() throws Exception {
        String number = Stubs.newNumber();
        String account = Stubs.newAccountSid();
        Stubs.twilioOwns(wm, account, "right", number, null);
        orgA().body("{\"twilioPhoneNumber\":\"" + number + "\",\"twilioAccountSid\":\"" + account
                        + "\",\"twilioAuthToken\":\"wrong\"}")
                .when().post("/phone-number/import/twilio")
                .then().statusCode(400)
                .body("statusCode", equalTo(400))
                .body("message", contains("twilio refused: Authenticate (code 20003); nothing was imported"));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from telephony.phone_numbers where number = ?", number));
    }

    @Test
    void aNumberTheAccountDoesNotOwnIsA400AndNothingIsStored() throws Exception {
        String number = Stubs.newNumber();
        String account = Stubs.newAccountSid();
        Stubs.twilioOwnsNothing(wm, account, "tok");
        orgA().body("{\"twilioPhoneNumber\":\"" + number + "\",\"twilioAccountSid\":\"" + account
                        + "\",\"twilioAuthToken\":\"tok\"}")
                .when().post("/phone-number/import/twilio")
                .then().statusCode(400)
                .body("message", contains("twilio account " + account + " does not own the number " + number
                        + "; nothing was imported"));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from telephony.phone_numbers where number = ?", number));
    }

    @Test
    void twilioFailingIsA503AndNothingIsStored() throws Exception {
        String number = Stubs.newNumber();
        String account = Stubs.newAccountSid();
        wm.stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(
                        urlPathEqualTo(Stubs.accountPath(account) + "/IncomingPhoneNumbers.json"))
                .willReturn(com.github.tomakehurst.wiremock.client.WireMock.serverError()));
        orgA().body("{\"twilioPhoneNumber\":\"" + number + "\",\"twilioAccountSid\":\"" + account
                        + "\",\"twilioAuthToken\":\"tok\"}")
                .when().post("/phone-number/import/twilio")
                .then().statusCode(503).body("error", equalTo("Service Unavailable"));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from telephony.phone_numbers where number = ?", number));
    }

    @Test
    void aNumberIsImportedOnceInAnOrganisationAndIsLiveInOneOrganisationOnly() {
        Numbers.Imported imported = Numbers.importTwilio(wm, orgA());
        String again = "{\"twilioPhoneNumber\":\"" + imported.number() + "\",\"twilioAccountSid\":\""
                + imported.accountSid() + "\",\"twilioAuthToken\":\"" + imported.authToken() + "\"}";
        orgA().body(again).when().post("/phone-number/import/twilio").then().statusCode(400)
                .body("message", contains("number " + imported.number() + " is already imported in this organisation"));
        orgB().body(again).when().post("/phone-number/import/twilio").then().statusCode(400)
                .body("message", contains("number " + imported.number() + " is already in use by another organisation"));
    }

    @Test
    void concurrentImportsOfOneNumberStoreItOnce() throws Exception {
        String number = Stubs.newNumber();
        String account = Stubs.newAccountSid();
        Stubs.twilioOwns(wm, account, "tok", number, null);
        String body = "{\"twilioPhoneNumber\":\"" + number + "\",\"twilioAccountSid\":\"" + account
                + "\",\"twilioAuthToken\":\"tok\"}";
        java.util.List<Integer> statuses = dev.voiceplane.kit.testing.Race.statuses(4, () -> (
                Math.random() < 0.5 ? orgA() : orgB()).body(body).when().post("/phone-number/import/twilio").statusCode());
        assertEquals(1, statuses.stream().filter(status -> status == 201).count(), statuses.toString());
        assertEquals(3, statuses.stream().filter(status -> status == 400).count(), statuses.toString());
        assertEquals(1, TestDatabase.count(dataSource, "select count(*) from telephony.phone_numbers where number = ?", number));
    }

    @Test
    void anUnknownAssistantIsA400AndNothingIsStored() throws Exception {
        String number = Stubs.newNumber();
        String account = Stubs.newAccountSid();
        Stubs.twilioOwns(wm, account, "tok", number, null);
        String assistant = newId();
        Stubs.assistantLookup(wm, TestKeys.ORG_A, assistant, false);
        orgA().body("{\"twilioPhoneNumber\":\"" + number + "\",\"twilioAccountSid\":\"" + account
                        + "\",\"twilioAuthToken\":\"tok\",\"assistantId\":\"" + assistant + "\"}")
                .when().post("/phone-number/import/twilio")
                .then().statusCode(400)
                .body("message", contains("assistantId " + assistant + " is not an assistant of this organisation"));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from telephony.phone_numbers where number = ?", number));
        // The carrier was not touched either: the reference is checked first.
        wm.verify(0, getRequestedFor(urlPathEqualTo(Stubs.accountPath(account) + "/IncomingPhoneNumbers.json")));
    }
}
