package dev.voiceplane.kit.testing;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;

/** Requests as the test organisations ({@link TestKeys}) and the other services make them. */
public final class TestClients {

    private TestClients() {
    }

    public static RequestSpecification orgA() {
        return as(TestKeys.KEY_A);
    }

    public static RequestSpecification orgB() {
        return as(TestKeys.KEY_B);
    }

    public static RequestSpecification orgC() {
        return as(TestKeys.KEY_C);
    }

    /** A JSON request with this API key. */
    public static RequestSpecification as(String key) {
        return given().header("Authorization", TestKeys.bearer(key)).contentType(ContentType.JSON);
    }

    /** A request of another service on an {@code /internal/} route, for this organisation. */
    public static RequestSpecification internal(String orgId) {
        return given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN))
                .header("X-Voice-Org-Id", orgId)
                .contentType(ContentType.JSON);
    }

    public static String newId() {
        return UUID.randomUUID().toString();
    }
}
