package dev.voiceplane.assistant.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.kit.json.JsonConventions;
import dev.voiceplane.kit.testing.TestClients;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.io.UncheckedIOException;

/** JSON as the service reads it, and the assistants and squads tests create (requests: the kit's TestClients). */
public final class Clients {

    /** Reads JSON as the service does: numbers of free-form JSON exactly as written. */
    public static final ObjectMapper JSON = JsonConventions.apply(new ObjectMapper());

    private Clients() {
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

    /** What the public API shows of a written assistant: its webhook secrets are write-only (left out). */
    public static ObjectNode withoutSecrets(JsonNode assistant) {
        return dev.voiceplane.contracts.assistant.AssistantSecrets.ASSISTANT.remove(((ObjectNode) assistant).deepCopy());
    }

    /** What the public API shows of a written squad: its members' webhook secrets left out. */
    public static ObjectNode squadWithoutSecrets(JsonNode squad) {
        return dev.voiceplane.contracts.assistant.AssistantSecrets.SQUAD.remove(((ObjectNode) squad).deepCopy());
    }

    /** Creates an assistant for the caller and returns its id. */
    public static String createAssistant(RequestSpecification caller, String body) {
        return caller.body(body).when().post("/assistant").then().statusCode(201).extract().path("id");
    }

    public static String createAssistant(RequestSpecification caller) {
        return createAssistant(caller, "{\"name\":\"" + "test " + TestClients.newId() + "\"}");
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
