package dev.voiceplane.kit.sample;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

@QuarkusTest
class AuthenticationTest {

    @Test
    void missingKeyIs401InTheErrorShape() {
        given().when().get("/note")
                .then().statusCode(401)
                .contentType(ContentType.JSON)
                .body("statusCode", equalTo(401))
                .body("error", equalTo("Unauthorized"))
                .body("message", startsWith("Invalid Key."));
    }

    @Test
    void unknownOrMalformedKeysAre401() {
        for (String header : new String[] {"Bearer nope", "Bearer ", "Basic a2V5LW9mLW9yZy1hOg==", TestKeys.KEY_A,
                "Bearer " + TestKeys.KEY_A + "x"}) {
            given().header("Authorization", header).when().get("/note")
                    .then().statusCode(401).body("statusCode", equalTo(401));
        }
    }

    @Test
    void plainAndHashedKeysAuthenticateTheirOrganisation() {
        String id = createNote(TestKeys.KEY_C, "hashed key note");
        given().header("Authorization", TestKeys.bearer(TestKeys.KEY_C)).when().get("/note/" + id)
                .then().statusCode(200).body("orgId", equalTo(TestKeys.ORG_C));
        given().header("Authorization", "bearer  " + TestKeys.KEY_A).when().get("/note")
                .then().statusCode(200);
    }

    @Test
    void anotherOrganisationsIdIsNotFound() {
        String id = createNote(TestKeys.KEY_A, "private to org a");
        given().header("Authorization", TestKeys.bearer(TestKeys.KEY_B)).when().get("/note/" + id)
                .then().statusCode(404)
                .body("statusCode", equalTo(404))
                .body("message", equalTo("Note not found"));
    }

    @Test
    void internalRoutesTakeTheServiceTokenAndAnOrganisation() {
        String id = createNote(TestKeys.KEY_A, "seen internally");

        given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN))
                .header("X-Voice-Org-Id", TestKeys.ORG_A)
                .when().get("/internal/note/" + id)
                .then().statusCode(200).body("text", equalTo("seen internally"));
        given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN))
                .header("X-Voice-Org-Id", TestKeys.ORG_B)
                .when().get("/internal/note/" + id)
                .then().statusCode(404);
        given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN))
                .when().get("/internal/note/" + id)
                .then().statusCode(400).body("message", equalTo("X-Voice-Org-Id header is required on internal routes"));
        // A customer's API key never opens an internal route.
        given().header("Authorization", TestKeys.bearer(TestKeys.KEY_A))
                .header("X-Voice-Org-Id", TestKeys.ORG_A)
                .when().get("/internal/note/" + id)
                .then().statusCode(401);
        // ... and the service token is not an API key.
        given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN)).when().get("/note")
                .then().statusCode(401);
    }

    static String createNote(String key, String text) {
        return given().header("Authorization", TestKeys.bearer(key))
                .contentType(ContentType.JSON).body("{\"text\":\"" + text + "\"}")
                .when().post("/note")
                .then().statusCode(201).extract().path("id");
    }
}
