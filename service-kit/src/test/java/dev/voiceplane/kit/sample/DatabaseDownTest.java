package dev.voiceplane.kit.sample;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.aMapWithSize;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.StoppableDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * While the database cannot be reached, every route that needs it answers 503 with {@code Retry-After} in the error
 * shape (not a 500: the request was fine, asking again later works), a bug stays a 500, and the service recovers by
 * itself once the database is back.
 */
@QuarkusTest
@QuarkusTestResource(value = StoppableDatabase.class, restrictToAnnotatedClass = true)
class DatabaseDownTest {

    private static final Duration EVENTUALLY = Duration.ofSeconds(60);

    private static RequestSpecification orgA() {
        return given().header("Authorization", TestKeys.bearer(TestKeys.KEY_A));
    }

    @Test
    void whileTheDatabaseIsDownEveryRouteThatNeedsItAnswers503WithRetryAfterAndThenRecovers() throws Exception {
        String id = orgA().contentType(ContentType.JSON).body("{\"text\":\"before\"}").when().post("/note")
                .then().statusCode(201).extract().path("id");

        StoppableDatabase.stopDatabase();
        try {
            unavailable(orgA().contentType(ContentType.JSON).body("{\"text\":\"during\"}").when().post("/note").then());
            unavailable(orgA().when().get("/note/" + id).then());
            unavailable(orgA().when().get("/note").then());
            // Asked again: connections the pool still held were closed by the stop; new ones are refused.
            unavailable(orgA().when().get("/note/" + id).then());
            // Without a key it is still a 401: authentication needs no database.
            given().when().get("/note").then().statusCode(401);
        } finally {
            StoppableDatabase.startDatabase();
        }

        Instant deadline = Instant.now().plus(EVENTUALLY);
        int status;
        do {
            status = orgA().when().get("/note/" + id).then().extract().statusCode();
            assertTrue(status == 200 || status == 503, "answered " + status + " while the database came back");
            assertTrue(Instant.now().isBefore(deadline), "the service did not recover within " + EVENTUALLY);
        } while (status != 200);
        orgA().when().get("/note/" + id).then().statusCode(200).body("text", equalTo("before"));
        orgA().contentType(ContentType.JSON).body("{\"text\":\"after\"}").when().post("/note").then().statusCode(201);
    }

    @Test
    void sqlTheDatabaseRefusesIsABugAndStaysA500() {
        orgA().when().get("/note-broken-query")
                .then().statusCode(500)
                .header("Retry-After", (String) null)
                .body("statusCode", equalTo(500))
                .body("error", equalTo("Internal Server Error"));
    }

    private static void unavailable(ValidatableResponse response) {
        response.statusCode(503)
                .contentType(ContentType.JSON)
                .header("Retry-After", matchesPattern("[1-9][0-9]*"))
                .body("$", aMapWithSize(3))
                .body("statusCode", equalTo(503))
                .body("error", equalTo("Service Unavailable"))
                .body("message", startsWith("the database is unavailable; try again later"));
    }
}
