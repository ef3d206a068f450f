package dev.voiceplane.telephony.rest;

import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What today's SDKs send to phone numbers: {@code provider} in a PATCH (accepted when it is the number's own, a 400
 * otherwise) and the {@code server} object next to {@code serverUrl}/{@code serverUrlSecret} (one value: the
 * secret write-only, headers and timeout given to call-service over the internal route).
 */
@QuarkusTest
class PhoneNumberTodaysShapesTest {

    @InjectWireMock
    WireMockServer wm;

    @Test
    void aPatchMayCarryTheNumbersOwnProviderOnly() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        orgA().body("{\"provider\":\"twilio\",\"name\":\"Front desk\"}").when().patch("/phone-number/" + number.id())
                .then().statusCode(200).body("name", equalTo("Front desk")).body("provider", equalTo("twilio"));
        orgA().body("{\"provider\":\"vonage\",\"name\":\"Moved\"}").when().patch("/phone-number/" + number.id())
                .then().statusCode(400)
                .body("message", hasItem(containsString("provider must be the number's own (twilio)")));
        orgA().body("{\"provider\":7}").when().patch("/phone-number/" + number.id()).then().statusCode(400);
        orgA().when().get("/phone-number/" + number.id()).then().statusCode(200).body("name", equalTo("Front desk"));
        // Another organisation's number stays a 404 whatever the body says.
        orgB().body("{\"provider\":\"twilio\"}").when().patch("/phone-number/" + number.id()).then().statusCode(404);
    }

    @Test
    void theServerObjectIsOneValueWithTheEraFieldsAndItsSecretIsWriteOnly() {
        Numbers.Imported number = Numbers.importTwilio(wm, orgA());
        String secret = "whsec-number-" + UUID.randomUUID();
        String answer = orgA().body("{\"provider\":\"twilio\",\"server\":{\"url\":\"https://h.example.com/n\",\"secret\":\""
                + secret + "\",\"headers\":{\"X-Tenant\":\"t1\"},\"timeoutSeconds\":12}}")
                .when().patch("/phone-number/" + number.id()).then().statusCode(200)
                .body("serverUrl", equalTo("https://h.example.com/n"))
                .body("server.url", equalTo("https://h.example.com/n"))
                .body("server.headers.X-Tenant", equalTo("t1"))
                .body("server.timeoutSeconds", equalTo(12))
                .body("server", not(hasKey("secret")))
                .extract().asString();
        assertFalse(answer.contains(secret), answer);
        TestClients.internal(TestKeys.ORG_A).when().get("/internal/phone-number/" + number.id()).then()
                .statusCode(200)
                .body("serverUrlSecret", equalTo(secret))
                .body("serverHeaders.X-Tenant", equalTo("t1"))
                .body("serverTimeoutSeconds", equalTo(12));
        orgA().body("{\"serverUrl\":\"https://other.example.com\",\"server\":{\"url\":\"https://h.example.com/n\"}}")
                .when().patch("/phone-number/" + number.id()).then().statusCode(400)
                .body("message", hasItem(containsString("serverUrl and server.url must be the same address")));
        orgA().body("{\"server\":{\"url\":\"https://h.example.com/n\",\"headers\":{\"Host\":\"x\"}}}")
                .when().patch("/phone-number/" + number.id()).then().statusCode(400)
                .body("message", hasItem(containsString("cannot set Host")));
        orgA().body("{\"serverUrl\":null}").when().patch("/phone-number/" + number.id()).then().statusCode(400)
                .body("message", hasItem(containsString("serverUrlSecret needs a serverUrl")));
        orgA().body("{\"server\":null}").when().patch("/phone-number/" + number.id()).then().statusCode(200)
                .body("$", not(hasKey("server"))).body("$", not(hasKey("serverUrl")));
        TestClients.internal(TestKeys.ORG_A).when().get("/internal/phone-number/" + number.id()).then()
                .statusCode(200).body("$", not(hasKey("serverUrlSecret"))).body("$", not(hasKey("serverHeaders")));
    }
}
