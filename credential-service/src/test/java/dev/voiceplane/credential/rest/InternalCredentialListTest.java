package dev.voiceplane.credential.rest;

import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** {@code GET /internal/credential?provider=...}: how call-service finds an organisation's own LLM key. */
@QuarkusTest
class InternalCredentialListTest {

    @Test
    void listsTheOrganisationsCredentialsOfOneProviderNewestFirst() {
        String older = newId();
        String newer = newId();
        String other = newId();
        orgA().body("{\"provider\":\"openai\",\"apiKey\":\"sk-older\"}").when().put("/credential/" + older).then().statusCode(200);
        orgA().body("{\"provider\":\"anthropic\",\"apiKey\":\"sk-other\"}").when().put("/credential/" + other).then().statusCode(200);
        orgA().body("{\"provider\":\"openai\",\"apiKey\":\"sk-newer\"}").when().put("/credential/" + newer).then().statusCode(200);
        orgB().body("{\"provider\":\"openai\",\"apiKey\":\"sk-b\"}").when().put("/credential/" + newId()).then().statusCode(200);

        internal(TestKeys.ORG_A).queryParam("provider", "openai").queryParam("limit", 1)
                .when().get("/internal/credential").then().statusCode(200)
                .body("size()", equalTo(1))
                .body("[0].id", equalTo(newer))
                .body("[0]", not(org.hamcrest.Matchers.hasKey("apiKey")));
        internal(TestKeys.ORG_A).queryParam("provider", "openai").queryParam("limit", 1000)
                .when().get("/internal/credential").then().statusCode(200)
                .body("provider", everyItem(equalTo("openai")))
                .body("orgId", everyItem(equalTo(TestKeys.ORG_A)))
                .body("id", hasItem(older))
                .body("id", not(hasItem(other)));
        internal(TestKeys.ORG_A).queryParam("nope", "x").when().get("/internal/credential").then().statusCode(400);
        // An API key never opens it.
        orgA().queryParam("provider", "openai").when().get("/internal/credential").then().statusCode(401);
    }
}
