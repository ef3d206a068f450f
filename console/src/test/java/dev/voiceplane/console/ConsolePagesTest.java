package dev.voiceplane.console;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * What the console's server answers: its pages and scripts under {@code /console} with headers that keep them to this
 * origin, the web-call page the build copies in, health like every service, and everything else in the API's error
 * shape. It never asks for an API key: the pages hold none.
 */
@QuarkusTest
class ConsolePagesTest {

    @Test
    void theConsoleLeadsToItsPage() {
        given().redirects().follow(false).when().get("/console").then().statusCode(302)
                .header("Location", endsWith("/console/"));
        given().when().get("/console/").then().statusCode(200)
                .contentType(containsString("text/html"))
                .body(containsString("<title>voiceplane console</title>"))
                .header("Content-Security-Policy", containsString("connect-src 'self'"))
                .header("Content-Security-Policy", containsString("script-src 'self';"))
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer");
    }

    @Test
    void theScriptsAreModulesOfThisOrigin() {
        given().when().get("/console/console.js").then().statusCode(200)
                .contentType(containsString("javascript"))
                .body(containsString("from './api.js'"));
        given().when().get("/console/api.js").then().statusCode(200)
                .body(containsString("location.origin + path"));
        given().when().get("/console/console.css").then().statusCode(200).contentType(containsString("text/css"));
    }

    @Test
    void theWebCallPageIsTheExamplesPage() {
        given().when().get("/console/web-call.html").then().statusCode(200)
                .body(containsString("<title>voiceplane: talk to an assistant</title>"))
                .header("Content-Security-Policy", containsString("frame-ancestors 'self'"))
                .header("Content-Security-Policy", not(containsString("connect-src 'self';")));
    }

    /** A range, even one that cannot be satisfied, gets the whole file: never a 416 without the error shape. */
    @Test
    void aRangeIsAnsweredWithTheWholeFile() {
        String whole = given().when().get("/console/console.css").then().statusCode(200).extract().asString();
        for (String range : new String[] {"bytes=0-3", "bytes=5-1", "bytes=999999-", "bytes=abc"}) {
            given().header("Range", range).when().get("/console/console.css").then().statusCode(200)
                    .body(equalTo(whole));
        }
    }

    @Test
    void whatIsNotAPageIsAnErrorInTheApisShape() {
        given().when().get("/console/no-such-page.html").then().statusCode(404)
                .contentType(containsString("application/json"))
                .body("statusCode", equalTo(404))
                .body("message", equalTo("Cannot GET /console/no-such-page.html"))
                .body("error", equalTo("Not Found"));
        given().when().get("/assistant").then().statusCode(404).body("statusCode", equalTo(404));
    }

    @Test
    void itIsReadyWithoutADatabase() {
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }
}
