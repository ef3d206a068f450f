package dev.voiceplane.file.rest;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Health, metrics and the OpenAPI document are served (without an API key; the Ingress does not route them). */
@QuarkusTest
class OperationsTest {

    @Test
    void healthMetricsAndOpenApi() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/metrics").then().statusCode(200).body(containsString("http_server_requests"));
        given().queryParam("format", "json").when().get("/q/openapi").then().statusCode(200)
                .body("paths", hasKey("/file/{id}"))
                .body("paths", hasKey("/file/upload"));
    }
}
