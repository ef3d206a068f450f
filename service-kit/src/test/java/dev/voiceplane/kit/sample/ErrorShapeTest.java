package dev.voiceplane.kit.sample;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.restassured.RestAssured;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ErrorShapeTest {

    private static RequestSpecification orgA() {
        return given().header("Authorization", TestKeys.bearer(TestKeys.KEY_A));
    }

    @Test
    void malformedJsonIs400() {
        orgA().contentType(ContentType.JSON).body("{\"text\": ").when().post("/note")
                .then().statusCode(400)
                .body("statusCode", equalTo(400))
                .body("error", equalTo("Bad Request"))
                .body("message", startsWith("request body is not valid JSON"));
    }

    @Test
    void wrongJsonTypesAre400WithTheirPath() {
        orgA().contentType(ContentType.JSON).body("{\"text\": 12}").when().post("/note")
                .then().statusCode(400).body("message", contains("text must be a string"));
        orgA().contentType(ContentType.JSON).body("{\"text\": \"x\", \"priority\": \"3\"}").when().post("/note")
                .then().statusCode(400).body("message", contains("priority must be an integer number"));
        orgA().contentType(ContentType.JSON).body("{\"text\": \"x\", \"priority\": 1.5}").when().post("/note")
                .then().statusCode(400).body("message", contains("priority must be an integer number"));
        orgA().contentType(ContentType.JSON).body("{\"text\": \"x\", \"details\": [{\"weight\": true}]}")
                .when().post("/note")
                .then().statusCode(400).body("message", contains("details.0.weight must be an integer number"));
        orgA().contentType(ContentType.JSON).body("[1, 2]").when().post("/note")
                .then().statusCode(400).body("message", contains("request body must be an object"));
    }

    @Test
    void everyUnknownPropertyIsNamedWithItsPath() {
        orgA().contentType(ContentType.JSON)
                .body("{\"text\": \"x\", \"colour\": \"red\", \"detail\": {\"label\": \"a\", \"extra\": {\"deep\": 1}},"
                        + " \"details\": [{\"label\": \"b\"}, {\"nope\": [1, 2]}]}")
                .when().post("/note")
                .then().statusCode(400)
                .body("message", containsInAnyOrder(
                        "property colour should not exist",
                        "detail.property extra should not exist",
                        "details.1.property nope should not exist"));
    }

    @Test
    void validationFailuresListEveryProblemWithNestedPaths() {
        orgA().contentType(ContentType.JSON)
                .body("{\"priority\": 9, \"detail\": {\"label\": \"far too long a label\", \"weight\": 0},"
                        + " \"details\": [{\"weight\": 1}, {\"weight\": -1}]}")
                .when().post("/note")
                .then().statusCode(400)
                .body("statusCode", equalTo(400))
                .body("message", containsInAnyOrder(
                        "text should not be null or undefined",
                        "priority must not be greater than 5",
                        "detail.label must be shorter than or equal to 10 characters",
                        "detail.weight must not be less than 1",
                        "details.1.weight must not be less than 1"));
    }

    @Test
    void aMissingBodyIs400() {
        orgA().contentType(ContentType.JSON).when().post("/note")
                .then().statusCode(400).body("statusCode", equalTo(400));
    }

    @Test
    void duplicateKeysAndTrailingContentAre400() {
        orgA().contentType(ContentType.JSON).body("{\"text\": \"a\", \"text\": \"b\"}").when().post("/note")
                .then().statusCode(400).body("statusCode", equalTo(400));
        orgA().contentType(ContentType.JSON).body("{\"text\": \"a\"} {}").when().post("/note")
                .then().statusCode(400).body("statusCode", equalTo(400));
    }

    @Test
    void valuesThatCannotBeStoredFaithfullyAre400() {
        orgA().contentType(ContentType.JSON).body("{\"text\": \"a\\u0000b\"}").when().post("/note")
                .then().statusCode(400)
                .body("message", contains("request body contains a \\u0000 character, which cannot be stored"));
        orgA().contentType(ContentType.JSON).body("{\"text\": \"a\\ud800b\"}").when().post("/note")
                .then().statusCode(400)
                .body("message", contains("request body contains an unpaired UTF-16 surrogate (\\ud800)"));
        orgA().contentType(ContentType.JSON).body("{\"text\": \"x\", \"weight\": 1e200000}").when().post("/note")
                .then().statusCode(400)
                .body("message", contains("request body contains a number whose exponent is beyond 1000"));
        // A pair of surrogates is one character, and stays one.
        orgA().contentType(ContentType.JSON).body("{\"text\": \"\\ud83d\\ude00\"}").when().post("/note")
                .then().statusCode(201).body("text", equalTo("\uD83D\uDE00"));
    }

    @Test
    void aValueTheDatabaseRefusesIs400AndNothingIsStored() {
        orgA().contentType(ContentType.JSON).body("{\"text\": \"too heavy\", \"weight\": 12345.67}").when().post("/note")
                .then().statusCode(400)
                .body("statusCode", equalTo(400))
                .body("message", contains("a value in the request cannot be stored or compared"));
        orgA().queryParam("text", "too heavy").when().get("/note").then().statusCode(200).body("$", empty());
    }

    @Test
    void aBodyInAnUndecodableEncodingIs400() {
        byte[] utf32WithInvalidCodePoint = {0, 0, 0, '{', 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        orgA().contentType("application/json").body(utf32WithInvalidCodePoint).when().post("/note")
                .then().statusCode(400).body("statusCode", equalTo(400));
    }

    @Test
    void aChunkedBodyOverTheLimitIs413() throws Exception {
        byte[] body = ("{\"text\": \"" + "x".repeat(70 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/note"))
                .header("Authorization", TestKeys.bearer(TestKeys.KEY_A))
                .header("Content-Type", "application/json")
                // An InputStream publisher has no length, so the body is sent chunked.
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build();
        HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(request, HttpResponse.BodyHandlers.ofString());
        org.junit.jupiter.api.Assertions.assertEquals(413, response.statusCode(), response.body());
        org.junit.jupiter.api.Assertions.assertTrue(response.body().contains("\"statusCode\":413"), response.body());
    }

    @Test
    void unknownRouteIs404InTheErrorShape() {
        orgA().when().get("/no-such-thing")
                .then().statusCode(404)
                .contentType(ContentType.JSON)
                .body("message", equalTo("Cannot GET /no-such-thing"))
                .body("error", equalTo("Not Found"))
                .body("statusCode", equalTo(404));
    }

    @Test
    void wrongMethodIs405() {
        orgA().when().delete("/note")
                .then().statusCode(405)
                .body("statusCode", equalTo(405))
                .body("error", equalTo("Method Not Allowed"));
    }

    @Test
    void wrongMediaTypeIs415() {
        orgA().contentType(ContentType.XML).body("<note/>").when().post("/note")
                .then().statusCode(415)
                .body("statusCode", equalTo(415))
                .body("error", equalTo("Unsupported Media Type"));
    }

    @Test
    void tooLargeBodyIs413() {
        String text = "x".repeat(70 * 1024);
        orgA().contentType(ContentType.JSON).body("{\"text\": \"" + text + "\"}").when().post("/note")
                .then().statusCode(413)
                .body("statusCode", equalTo(413))
                .body("error", equalTo("Payload Too Large"));
    }

    @Test
    void serverFailureSaysNothingAboutInternalsButGivesTheRequestId() {
        String requestId = orgA().when().get("/note-failure")
                .then().statusCode(500)
                .body("statusCode", equalTo(500))
                .body("error", equalTo("Internal Server Error"))
                .body("message", not(containsString("hunter2")))
                .body("message", not(containsString("jdbc")))
                .extract().header("X-Request-Id");
        orgA().header("X-Request-Id", "trace-42").when().get("/note-failure")
                .then().statusCode(500).body("message", containsString("trace-42"));
        org.junit.jupiter.api.Assertions.assertNotNull(requestId);
    }

    @Test
    void everyResponseCarriesARequestId() {
        orgA().when().get("/note").then().statusCode(200)
                .header("X-Request-Id", matchesPattern("[0-9a-f-]{36}"));
        given().when().get("/note").then().statusCode(401).header("X-Request-Id", notNullValue());
        orgA().when().get("/nowhere").then().statusCode(404).header("X-Request-Id", notNullValue());
        orgA().header("X-Request-Id", "client-chosen.id-1").when().get("/note")
                .then().header("X-Request-Id", equalTo("client-chosen.id-1"));
        orgA().header("X-Request-Id", "bad id with spaces").when().get("/note")
                .then().header("X-Request-Id", matchesPattern("[0-9a-f-]{36}"));
    }
}
