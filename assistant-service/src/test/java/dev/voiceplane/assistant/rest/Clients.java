package dev.voiceplane.assistant.rest;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.json.JsonConventions;
import dev.voiceplane.kit.testing.TestKeys;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.io.UncheckedIOException;
import java.util.UUID;

/** Requests as the test organisations and the other services make them, and JSON as the service reads it. */
public final class Clients {

    /** Reads JSON as the service does: numbers of free-form JSON exactly as written. */
    public static final ObjectMapper JSON = JsonConventions.apply(new ObjectMapper());

    private Clients() {
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

    public static RequestSpecification as(String key) {
        return given().header("Authorization", TestKeys.bearer(key)).contentType(ContentType.JSON);
    }

    public static RequestSpecification internal(String orgId) {
        return given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN))
                .header("X-Voice-Org-Id", orgId)
                .contentType(ContentType.JSON);
    }

    public static String newId() {
        return UUID.randomUUID().toString();
    }

    public static ObjectNode object(String json) {
        return (ObjectNode) tree(json);
    }

    public static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode tree(ValidatableResponse response) {
        return tree(response.extract().asString());
    }

    /** A response's resource without the returned-only fields: what the client wrote. */
    public static ObjectNode written(JsonNode resource) {
        ObjectNode copy = ((ObjectNode) resource).deepCopy();
        copy.remove(java.util.List.of("id", "orgId", "createdAt", "updatedAt"));
        return copy;
    }

    /** Creates an assistant for the caller and returns its id. */
    public static String createAssistant(RequestSpecification caller, String body) {
        return caller.body(body).when().post("/assistant").then().statusCode(201).extract().path("id");
    }

    public static String createAssistant(RequestSpecification caller) {
        return createAssistant(caller, "{\"name\":\"" + "test " + newId() + "\"}");
    }

    /** Creates a squad whose members are the given stored assistants and returns its id. */
    public static String createSquad(RequestSpecification caller, String... assistantIds) {
        StringBuilder members = new StringBuilder();
        for (String id : assistantIds) {
            members.append(members.isEmpty() ? "" : ",").append("{\"assistantId\":\"").append(id).append("\"}");
        }
        return caller.body("{\"members\":[" + members + "]}").when().post("/squad")
                .then().statusCode(201).extract().path("id");
    }
}
