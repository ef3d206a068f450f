package dev.voiceplane.assistant.rest;

import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An assistant's server in both spellings ({@code serverUrl}/{@code serverUrlSecret} and {@code server}): each is
 * answered as written, both written must agree, a PATCH of one moves the other, the secret stays write-only; and a
 * squad's {@code name}.
 */
@QuarkusTest
class ServerObjectTest {

    @Test
    void theServerObjectIsAnsweredAsWrittenWithItsSecretLeftOut() {
        String secret = "whsec-obj-" + UUID.randomUUID();
        String answer = orgA().body("{\"server\":{\"url\":\"https://hooks.example.com/a\",\"secret\":\"" + secret
                + "\",\"headers\":{\"Authorization\":\"Bearer t\"},\"timeoutSeconds\":30}}")
                .when().post("/assistant").then().statusCode(201)
                .body("server.url", equalTo("https://hooks.example.com/a"))
                .body("server.headers.Authorization", equalTo("Bearer t"))
                .body("server.timeoutSeconds", equalTo(30))
                .body("server", not(hasKey("secret")))
                .body("$", not(hasKey("serverUrl")))
                .extract().asString();
        assertFalse(answer.contains(secret));
        String id = io.restassured.path.json.JsonPath.from(answer).getString("id");
        TestClients.internal(TestKeys.ORG_A).when().get("/internal/assistant/" + id).then().statusCode(200)
                .body("server.secret", equalTo(secret));
    }

    @Test
    void bothSpellingsMustAgreeAndAPatchOfOneMovesTheOther() {
        orgA().body("{\"serverUrl\":\"https://a.example.com\",\"server\":{\"url\":\"https://b.example.com\"},"
                + "\"serverUrlSecret\":\"s1\"}").when().post("/assistant").then().statusCode(400)
                .body("message", hasItem(containsString("serverUrl and server.url must be the same address")));
        String id = orgA().body("{\"serverUrl\":\"https://a.example.com\",\"serverUrlSecret\":\"s1\","
                + "\"server\":{\"url\":\"https://a.example.com\",\"secret\":\"s1\",\"timeoutSeconds\":5}}")
                .when().post("/assistant").then().statusCode(201).extract().path("id");
        orgA().body("{\"serverUrl\":\"https://c.example.com\"}").when().patch("/assistant/" + id).then()
                .statusCode(200)
                .body("serverUrl", equalTo("https://c.example.com"))
                .body("server.url", equalTo("https://c.example.com"))
                .body("server.timeoutSeconds", equalTo(5));
        orgA().body("{\"server\":{\"url\":\"https://d.example.com\",\"secret\":\"s2\"}}").when()
                .patch("/assistant/" + id).then().statusCode(200)
                .body("serverUrl", equalTo("https://d.example.com"))
                .body("server.url", equalTo("https://d.example.com"))
                .body("server", not(hasKey("timeoutSeconds")));
        TestClients.internal(TestKeys.ORG_A).when().get("/internal/assistant/" + id).then().statusCode(200)
                .body("serverUrlSecret", equalTo("s2"))
                .body("server.secret", equalTo("s2"));
        orgA().body("{\"server\":null}").when().patch("/assistant/" + id).then().statusCode(200)
                .body("$", not(hasKey("serverUrl")))
                .body("$", not(hasKey("server")));
        TestClients.internal(TestKeys.ORG_A).when().get("/internal/assistant/" + id).then().statusCode(200)
                .body("$", not(hasKey("serverUrlSecret")));
    }

    @Test
    void aSquadHasAName() {
        String assistant = Clients.createAssistant(orgA());
        String squad = orgA().body("{\"name\":\"Front desk\",\"members\":[{\"assistantId\":\"" + assistant + "\"}]}")
                .when().post("/squad").then().statusCode(201).body("name", equalTo("Front desk")).extract().path("id");
        orgA().when().get("/squad/" + squad).then().statusCode(200).body("name", equalTo("Front desk"));
        orgA().body("{\"name\":\"Reception\"}").when().patch("/squad/" + squad).then().statusCode(200)
                .body("name", equalTo("Reception"))
                .body("members[0].assistantId", equalTo(assistant));
        orgA().body("{\"name\":null}").when().patch("/squad/" + squad).then().statusCode(200)
                .body("$", not(hasKey("name")));
        orgA().body("{\"name\":\"" + "x".repeat(101) + "\",\"members\":[{\"assistantId\":\"" + assistant + "\"}]}")
                .when().post("/squad").then().statusCode(400).body("message", hasItem(containsString("name")));
    }
}
