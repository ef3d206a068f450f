package dev.voiceplane.credential.rest;

import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import java.util.List;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The credentials of today's providers (docs/api-reference.md "Credentials"): each with the fields the published SDK
 * gives it, the key write-only and opened only internally, the fields that are not secrets (an azure region, an
 * azure-openai endpoint) answered as written, publicly and on the internal routes the voice runtime reads.
 */
@QuarkusTest
class CredentialFieldsTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"assembly-ai", "cartesia", "deepgram", "anthropic", "google", "xai", "cerebras", "deep-seek",
            "speechmatics", "soniox", "gladia", "lmnt", "rime-ai", "11labs", "inworld", "hume", "neuphonic", "smallest-ai",
            "tavus", "wellsaid", "inflection-ai", "playht", "custom-transcriber", "custom-voice"})
    void todaysApiKeyProvidersTakeOneApiKey(String provider) {
        String id = newId();
        String key = provider + "-key-" + id;
        orgA().body("{\"provider\":\"" + provider + "\",\"apiKey\":\"" + key + "\",\"name\":\"" + provider + "\"}")
                .when().put("/credential/" + id).then().statusCode(200)
                .body("provider", equalTo(provider))
                .body("$", not(Matchers.hasKey("apiKey")));
        orgA().when().get("/credential/" + id).then().statusCode(200).body("provider", equalTo(provider));
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id + "/secret").then().statusCode(200)
                .body("provider", equalTo(provider)).body("apiKey", equalTo(key));
        orgA().body("{\"provider\":\"" + provider + "\"}").when().post("/credential").then().statusCode(400)
                .body("message", contains("apiKey should not be empty"));
    }

    // ---- azure ----------------------------------------------------------------------------------------------------

    @Test
    void anAzureCredentialIsAnApiKeyAndItsRegionAnsweredWhereverTheCredentialIs() {
        String id = newId();
        orgA().body("{\"provider\":\"azure\",\"apiKey\":\"az-key-1\",\"region\":\"westeurope\",\"service\":\"speech\"}")
                .when().put("/credential/" + id).then().statusCode(200)
                .body("region", equalTo("westeurope"))
                .body("service", equalTo("speech"))
                .body("$", not(Matchers.hasKey("apiKey")));
        orgA().when().get("/credential/" + id).then().statusCode(200).body("region", equalTo("westeurope"));
        orgA().queryParam("limit", 1000).when().get("/credential").then().statusCode(200)
                .body("find { it.id == '" + id + "' }.region", equalTo("westeurope"));
        // The runtime's way: the newest credential of the provider (its region), then its secret (the key).
        internal(TestKeys.ORG_A).queryParam("provider", "azure").queryParam("limit", 1).when()
                .get("/internal/credential").then().statusCode(200)
                .body("[0].id", equalTo(id)).body("[0].region", equalTo("westeurope"))
                .body("[0]", not(Matchers.hasKey("apiKey")));
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id).then().statusCode(200)
                .body("region", equalTo("westeurope"));
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id + "/secret").then().statusCode(200)
                .body("apiKey", equalTo("az-key-1"));
        // A replace is the whole credential: a new region replaces the old one.
        orgA().body("{\"provider\":\"azure\",\"apiKey\":\"az-key-2\",\"region\":\"eastus2\"}")
                .when().put("/credential/" + id).then().statusCode(200)
                .body("region", equalTo("eastus2")).body("$", not(Matchers.hasKey("service")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"provider\":\"azure\",\"apiKey\":\"k\"}| region should not be empty",
            "{\"provider\":\"azure\",\"region\":\"eastus\"}| apiKey should not be empty",
            "{\"provider\":\"azure\",\"apiKey\":\"k\",\"region\":\" \"}| region should not be empty",
            "{\"provider\":\"azure\",\"apiKey\":\"k\",\"region\":\"EastUS\"}| region must be an Azure region name such as eastus (lower-case letters and digits)",
            "{\"provider\":\"azure\",\"apiKey\":\"k\",\"region\":\"east-us\"}| region must be an Azure region name such as eastus (lower-case letters and digits)",
            "{\"provider\":\"azure\",\"apiKey\":\"k\",\"region\":\"3eastus\"}| region must be an Azure region name such as eastus (lower-case letters and digits)",
            "{\"provider\":\"azure\",\"apiKey\":\"k\",\"region\":\"https://eastus.api.cognitive.microsoft.com\"}| region must be an Azure region name such as eastus (lower-case letters and digits)",
            "{\"provider\":\"azure\",\"apiKey\":\"k\",\"region\":\"eastus\",\"service\":\"blob_storage\"}| service must be one of the following values: speech",
            "{\"provider\":\"azure\",\"apiKey\":\"k\",\"region\":\"eastus\",\"openAIEndpoint\":\"https://x.openai.azure.com\"}| property openAIEndpoint should not exist",
            "{\"provider\":\"openai\",\"apiKey\":\"k\",\"service\":\"speech\"}| property service should not exist"})
    void anAzureRegionIsRequiredAndMustBeARegionName(String body, String message) {
        orgA().body(body).when().post("/credential").then().statusCode(400)
                .body("statusCode", equalTo(400)).body("message", contains(message.strip()));
    }

    @Test
    void anAzureRegionIsAtMostFiftyCharacters() {
        orgA().body("{\"provider\":\"azure\",\"apiKey\":\"k\",\"region\":\"" + "a".repeat(51) + "\"}").when()
                .post("/credential").then().statusCode(400)
                .body("message", contains("region must be shorter than or equal to 50 characters"));
    }

    @Test
    void voiceAKeepsItsEraFormAndMayNameARegion() {
        orgA().body("{\"provider\":\"voiceA\",\"apiKey\":\"k\"}").when().post("/credential").then().statusCode(201)
                .body("provider", equalTo("voiceA")).body("$", not(Matchers.hasKey("region")));
        orgA().body("{\"provider\":\"voiceA\",\"apiKey\":\"k\",\"region\":\"swedencentral\"}").when().post("/credential")
                .then().statusCode(201).body("region", equalTo("swedencentral"));
        orgA().body("{\"provider\":\"voiceA\",\"apiKey\":\"k\",\"region\":\"Sweden Central\"}").when().post("/credential")
                .then().statusCode(400)
                .body("message", contains("region must be an Azure region name such as eastus (lower-case letters and digits)"));
    }

    // ---- azure-openai ---------------------------------------------------------------------------------------------

    @Test
    void anAzureOpenAiCredentialInTheSdksFormAnswersItsEndpointAndGivesItsKeyAsTheApiKey() {
        String id = newId();
        orgA().body("""
                {"provider": "azure-openai", "region": "swedencentral", "models": ["gpt-4o-2024-08-06", "gpt-4.1-mini-2025-04-14"],
                 "openAIKey": "aoai-key-1", "ocpApimSubscriptionKey": "apim-key-1",
                 "openAIEndpoint": "https://acme-sweden.openai.azure.com", "name": "sweden"}""")
                .when().put("/credential/" + id).then().statusCode(200)
                .body("region", equalTo("swedencentral"))
                .body("models", contains("gpt-4o-2024-08-06", "gpt-4.1-mini-2025-04-14"))
                .body("openAIEndpoint", equalTo("https://acme-sweden.openai.azure.com"))
                .body("$", not(Matchers.hasKey("openAIKey")))
                .body("$", not(Matchers.hasKey("ocpApimSubscriptionKey")));
        internal(TestKeys.ORG_A).queryParam("provider", "azure-openai").queryParam("limit", 1).when()
                .get("/internal/credential").then().statusCode(200)
                .body("[0].openAIEndpoint", equalTo("https://acme-sweden.openai.azure.com"))
                .body("[0].models", hasItem("gpt-4o-2024-08-06"));
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id + "/secret").then().statusCode(200)
                .body("apiKey", equalTo("aoai-key-1"))
                .body("ocpApimSubscriptionKey", equalTo("apim-key-1"));
    }

    @Test
    void anAzureOpenAiCredentialInTheErasFormStaysAnApiKey() {
        String id = newId();
        orgA().body("{\"provider\":\"azure-openai\",\"apiKey\":\"aoai-era\"}").when().put("/credential/" + id)
                .then().statusCode(200).body("$", not(Matchers.hasKey("openAIEndpoint")));
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + id + "/secret").then().statusCode(200)
                .body("apiKey", equalTo("aoai-era")).body("ocpApimSubscriptionKey", nullValue());
        orgA().body("{\"provider\":\"azure-openai\",\"apiKey\":\"aoai-era\",\"openAIEndpoint\":\"https://e.openai.azure.com\"}")
                .when().put("/credential/" + id).then().statusCode(200)
                .body("openAIEndpoint", equalTo("https://e.openai.azure.com"));
    }

    @Test
    void anAzureOpenAiCredentialIsCheckedAsTheSdkHasIt() {
        rejected("{\"provider\":\"azure-openai\",\"openAIKey\":\"k\"}",
                "region should not be empty", "models should not be empty", "openAIEndpoint should not be empty");
        rejected("{\"provider\":\"azure-openai\"}", "openAIKey should not be empty");
        rejected("{\"provider\":\"azure-openai\",\"apiKey\":\"k\",\"openAIKey\":\"k\"}",
                "openAIKey and apiKey are the same key: give one of them");
        rejected("{\"provider\":\"azure-openai\",\"openAIKey\":\"k\",\"region\":\"eastus\",\"models\":[],"
                + "\"openAIEndpoint\":\"acme.openai.azure.com\"}",
                "models should not be empty", "openAIEndpoint must be a URL address");
        rejected("{\"provider\":\"azure-openai\",\"openAIKey\":\"k\",\"region\":\"East US\",\"models\":[\"gpt-4o\",null,\" \"],"
                + "\"openAIEndpoint\":\"https://acme.openai.azure.com\"}",
                "region must be an Azure region name such as eastus (lower-case letters and digits)",
                "models.1 should not be null or undefined", "models.2 should not be empty");
        rejected("{\"provider\":\"azure-openai\",\"openAIKey\":\"k\",\"region\":\"eastus\",\"models\":\"gpt-4o\","
                + "\"openAIEndpoint\":\"https://acme.openai.azure.com\"}", "models must be an array");
        rejected("{\"provider\":\"openai\",\"apiKey\":\"k\",\"openAIKey\":\"k\",\"models\":[\"gpt-4o\"]}",
                "property openAIKey should not exist", "property models should not exist");
    }

    // ---- deepgram, playht, minimax --------------------------------------------------------------------------------

    @Test
    void deepgramPlayhtAndMinimaxTakeTheirOwnFields() {
        orgA().body("{\"provider\":\"deepgram\",\"apiKey\":\"dg\",\"apiUrl\":\"https://deepgram.internal.example:8443\"}")
                .when().post("/credential").then().statusCode(201)
                .body("apiUrl", equalTo("https://deepgram.internal.example:8443"));
        rejected("{\"provider\":\"deepgram\",\"apiKey\":\"dg\",\"apiUrl\":\"deepgram.internal\"}", "apiUrl must be a URL address");
        orgA().body("{\"provider\":\"playht\",\"apiKey\":\"ph\",\"userId\":\"user-42\"}").when().post("/credential")
                .then().statusCode(201).body("userId", equalTo("user-42"));
        String minimax = orgA().body("{\"provider\":\"minimax\",\"apiKey\":\"mm\",\"groupId\":\"1890\"}").when()
                .post("/credential").then().statusCode(201).body("groupId", equalTo("1890")).extract().path("id");
        internal(TestKeys.ORG_A).when().get("/internal/credential/" + minimax).then().statusCode(200)
                .body("groupId", equalTo("1890"));
        rejected("{\"provider\":\"minimax\",\"apiKey\":\"mm\"}", "groupId should not be empty");
        rejected("{\"provider\":\"cartesia\",\"apiKey\":\"c\",\"apiUrl\":\"https://x.example\",\"userId\":\"u\",\"groupId\":\"g\"}",
                "property apiUrl should not exist", "property userId should not exist", "property groupId should not exist");
    }

    @Test
    void credentialsWithoutSuchFieldsAnswerNone() {
        orgA().body("{\"provider\":\"openai\",\"apiKey\":\"k\"}").when().post("/credential").then().statusCode(201)
                .body("keySet()", containsInAnyOrder(List.of("id", "orgId", "provider", "createdAt", "updatedAt").toArray()));
    }

    private static ValidatableResponse rejected(String body, String... messages) {
        return orgA().body(body).when().post("/credential").then().statusCode(400)
                .body("message", containsInAnyOrder(messages));
    }
}
