package dev.voiceplane.credential.rest;

import static io.restassured.RestAssured.given;

import dev.voiceplane.kit.testing.TestKeys;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;

/** Requests as the test organisations make them. */
final class Clients {

    private Clients() {
    }

    static RequestSpecification orgA() {
        return as(TestKeys.KEY_A);
    }

    static RequestSpecification orgB() {
        return as(TestKeys.KEY_B);
    }

    static RequestSpecification as(String key) {
        return given().header("Authorization", TestKeys.bearer(key)).contentType(ContentType.JSON);
    }

    static RequestSpecification internal(String orgId) {
        return given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN)).header("X-Voice-Org-Id", orgId);
    }

    static String newId() {
        return UUID.randomUUID().toString();
    }

    static String openai(String apiKey) {
        return "{\"provider\":\"openai\",\"apiKey\":\"" + apiKey + "\"}";
    }
}
