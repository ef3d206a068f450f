package dev.voiceplane.credential.rest;

import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.TestClients;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

/** Secret fields go in and never come out: not in any response, not in clear in the database. */
@QuarkusTest
class CredentialSecrecyTest {

    private static final String API_KEY = "sk-very-secret-api-key-0001";
    private static final String API_SECRET = "vonage-very-secret-0002";
    private static final String AUTH_TOKEN = "twilio-very-secret-token-0003";
    private static final String SIGNATURE_SECRET = "vonage-signature-secret-0004";
    private static final String OPENAI_KEY = "azure-openai-very-secret-0005";
    private static final String APIM_KEY = "azure-apim-very-secret-0006";

    /** An azure-openai credential in the published SDK's form: two secrets, and fields that are not secrets. */
    private static String azureOpenAi() {
        return "{\"provider\":\"azure-openai\",\"openAIKey\":\"" + OPENAI_KEY + "\",\"ocpApimSubscriptionKey\":\""
                + APIM_KEY + "\",\"region\":\"eastus\",\"models\":[\"gpt-4o-2024-08-06\"],"
                + "\"openAIEndpoint\":\"https://acme.openai.azure.com\"}";
    }

    @Inject
    AgroalDataSource dataSource;

    @Test
    void noResponseEverContainsASecret() {
        String vonage = newId();
        String twilio = newId();
        String body1 = orgA().body("{\"provider\":\"vonage\",\"apiKey\":\"" + API_KEY + "\",\"apiSecret\":\"" + API_SECRET
                + "\",\"signatureSecret\":\"" + SIGNATURE_SECRET + "\"}")
                .when().put("/credential/" + vonage).then().statusCode(200).extract().asString();
        String body2 = orgA().body("{\"provider\":\"twilio\",\"accountSid\":\"AC42\",\"authToken\":\"" + AUTH_TOKEN + "\"}")
                .when().post("/credential").then().statusCode(201).extract().asString();
        String twilioId = io.restassured.path.json.JsonPath.from(body2).getString("id");
        String body3 = orgA().body("{\"provider\":\"twilio\",\"accountSid\":\"AC43\",\"authToken\":\"" + AUTH_TOKEN + "\"}")
                .when().put("/credential/" + twilio).then().statusCode(200).extract().asString();
        String body4 = orgA().when().get("/credential/" + vonage).then().statusCode(200).extract().asString();
        String body5 = orgA().queryParam("limit", 1000).when().get("/credential").then().statusCode(200).extract().asString();
        String body6 = orgA().when().delete("/credential/" + twilioId).then().statusCode(200).extract().asString();
        String azure = newId();
        String body7 = orgA().body(azureOpenAi()).when().put("/credential/" + azure).then().statusCode(200)
                .extract().asString();
        String body8 = orgA().when().get("/credential/" + azure).then().statusCode(200).extract().asString();
        String body9 = orgA().queryParam("limit", 1000).when().get("/credential").then().statusCode(200).extract().asString();
        for (String body : new String[] {body1, body2, body3, body4, body5, body6, body7, body8, body9}) {
            assertFalse(body.contains(OPENAI_KEY), body);
            assertFalse(body.contains(APIM_KEY), body);
            assertFalse(body.contains("\"openAIKey\""), body);
            assertFalse(body.contains("\"ocpApimSubscriptionKey\""), body);
            assertFalse(body.contains(API_KEY), body);
            assertFalse(body.contains(API_SECRET), body);
            assertFalse(body.contains(AUTH_TOKEN), body);
            assertFalse(body.contains(SIGNATURE_SECRET), body);
            assertFalse(body.contains("\"signatureSecret\""), body);
            assertFalse(body.contains("\"apiKey\""), body);
            assertFalse(body.contains("\"apiSecret\""), body);
            assertFalse(body.contains("\"authToken\""), body);
        }
        // The account SID is an identifier, not a secret.
        assertTrue(body3.contains("\"accountSid\":\"AC43\""), body3);
        // So are an azure-openai credential's region, deployments and endpoint.
        assertTrue(body8.contains("\"openAIEndpoint\":\"https://acme.openai.azure.com\""), body8);
        orgA().when().get("/credential/" + twilio).then().body("$", not(Matchers.hasKey("authToken")));
    }

    @Test
    void noSecretIsEverLogged() {
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record.getLoggerName() + " " + record.getMessage() + " " + java.util.Arrays.toString(record.getParameters())
                        + " " + (record.getThrown() == null ? "" : String.valueOf(record.getThrown())));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        capture.setLevel(Level.ALL);
        Logger root = Logger.getLogger("");
        // Our own code logs at every level while this runs, so a debug line with a secret would be seen too.
        Logger ours = Logger.getLogger("dev.voiceplane");
        Level oursBefore = ours.getLevel();
        ours.setLevel(Level.ALL);
        root.addHandler(capture);
        try {
            String id = newId();
            orgA().body("{\"provider\":\"openai\",\"apiKey\":\"" + API_KEY + "\"}").when().put("/credential/" + id)
                    .then().statusCode(200);
            orgA().body("{\"provider\":\"openai\",\"apiKey\":\"" + API_KEY + "\",\"x\":1}").when().put("/credential/" + id)
                    .then().statusCode(400);
            orgA().body("{\"provider\":\"twilio\",\"apiKey\":\"" + API_KEY + "\"}").when().post("/credential")
                    .then().statusCode(400);
            orgA().body("{\"provider\":\"openai\",\"apiKey\":\"" + API_KEY + "\"").when().post("/credential")
                    .then().statusCode(400);
            TestClients.internal("org-a").when().get("/internal/credential/" + id + "/secret").then().statusCode(200);
            orgA().body(azureOpenAi()).when().put("/credential/" + id).then().statusCode(200);
            orgA().body(azureOpenAi().replace("\"eastus\"", "\"East US\"")).when().put("/credential/" + id)
                    .then().statusCode(400);
            TestClients.internal("org-a").when().get("/internal/credential/" + id + "/secret").then().statusCode(200);
        } finally {
            root.removeHandler(capture);
            ours.setLevel(oursBefore);
        }
        for (String line : logged) {
            assertFalse(line.contains(API_KEY), "logged a secret: " + line);
            assertFalse(line.contains(OPENAI_KEY), "logged a secret: " + line);
            assertFalse(line.contains(APIM_KEY), "logged a secret: " + line);
        }
    }

    @Test
    void theDatabaseHoldsNoSecretInClear() throws Exception {
        String id = newId();
        orgA().body("{\"provider\":\"vonage\",\"apiKey\":\"" + API_KEY + "\",\"apiSecret\":\"" + API_SECRET
                + "\",\"signatureSecret\":\"" + SIGNATURE_SECRET + "\"}")
                .when().put("/credential/" + id).then().statusCode(200);
        orgA().body(azureOpenAi()).when().put("/credential/" + newId()).then().statusCode(200);
        StringBuilder everything = new StringBuilder();
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "select row_to_json(c)::text, encode(c.secret, 'escape') from credential.credentials c")) {
            while (rows.next()) {
                everything.append(rows.getString(1)).append('\n').append(rows.getString(2)).append('\n');
            }
        }
        String dump = everything.toString();
        assertTrue(dump.contains(id), "the row was written");
        assertTrue(dump.contains("https://acme.openai.azure.com"), "the endpoint, not a secret, is kept as written");
        for (String secret : new String[] {API_KEY, API_SECRET, SIGNATURE_SECRET, OPENAI_KEY, APIM_KEY}) {
            assertFalse(dump.contains(secret), "secret in clear");
            assertFalse(dump.contains(HexFormat.of().formatHex(secret.getBytes(StandardCharsets.UTF_8))), "secret in hex");
        }
    }
}
