package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.tree;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Whatever is accepted reads back (issue 6, item 1): numbers at the edge of what is stored, in assistants and in
 * squads; what could not read back is a 400; and a stored row that does not read as its type (edited by hand, or
 * written under older rules) answers what can be read, can be repaired by a PATCH and deleted, and never takes the
 * organisation's list down.
 */
@QuarkusTest
class StoredNumbersTest {

    @Inject
    AgroalDataSource dataSource;

    @ParameterizedTest
    @ValueSource(strings = {"1e1000", "-1e1000", "0.5e-1000", "-0.5e-1000", "1e999", "9.99e1000", "1.50"})
    void aNumberThatIsAcceptedReadsBackEverywhere(String number) {
        String id = orgA().body("{\"name\":\"n " + number + "\",\"metadata\":{\"n\":" + number + "}}")
                .when().post("/assistant").then().statusCode(201).extract().path("id");
        BigDecimal expected = new BigDecimal(number);

        assertEquals(0, expected.compareTo(metadataNumber(tree(orgA().when().get("/assistant/" + id).then().statusCode(200)))));
        orgA().when().get("/assistant?limit=1000").then().statusCode(200).body("id", hasItem(id));
        JsonNode patched = tree(orgA().body("{\"firstMessage\":\"still here\"}").when().patch("/assistant/" + id)
                .then().statusCode(200));
        assertEquals(0, expected.compareTo(metadataNumber(patched)));
        orgA().when().delete("/assistant/" + id).then().statusCode(200).body("id", equalTo(id));
        orgA().when().get("/assistant/" + id).then().statusCode(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e1000", "-1e1000", "0.5e-1000"})
    void squadsKeepSuchNumbersInInlineAssistantsAndOverrides(String number) {
        String body = "{\"members\":[{\"assistant\":{\"name\":\"inline\",\"metadata\":{\"n\":"
                + number + "}},\"assistantOverrides\":{\"variableValues\":{\"v\":" + number + "}}}]}";
        String id = orgA().body(body).when().post("/squad").then().statusCode(201).extract().path("id");

        JsonNode squad = tree(orgA().when().get("/squad/" + id).then().statusCode(200));
        BigDecimal expected = new BigDecimal(number);
        assertEquals(0, expected.compareTo(squad.at("/members/0/assistant/metadata/n").decimalValue()));
        assertEquals(0, expected.compareTo(squad.at("/members/0/assistantOverrides/variableValues/v").decimalValue()));
        orgA().when().get("/squad?limit=1000").then().statusCode(200).body("id", hasItem(id));
        orgA().body(body).when().patch("/squad/" + id).then().statusCode(200);
        orgA().when().delete("/squad/" + id).then().statusCode(200);
    }

    @Test
    void aNumberThatCouldNotReadBackIs400AndNothingIsStored() {
        String name = "too long " + newId();
        String digits = "9".repeat(1500);
        orgA().body("{\"name\":\"" + name + "\",\"metadata\":{\"n\":" + digits + "e600}}").when().post("/assistant")
                .then().statusCode(400)
                .body("message", contains("request body contains a number longer than 2048 characters when written out in full"));
        orgA().when().get("/assistant?limit=1000").then().statusCode(200)
                .body("name", org.hamcrest.Matchers.not(hasItem(name)));
    }

    @Test
    void aStoredRowThatDoesNotReadAsItsTypeCanStillBeListedReadRepairedAndDeleted() throws Exception {
        String id = UUID.randomUUID().toString();
        Instant now = Instant.now();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "insert into assistant.assistants (org_id, id, document, created_at, updated_at)"
                                + " values (?, ?::uuid, ?::jsonb, ?, ?)")) {
            insert.setString(1, TestKeys.ORG_A);
            insert.setString(2, id);
            insert.setString(3, "{\"name\":{\"not\":\"a string\"},\"firstMessage\":\"kept\"}");
            insert.setObject(4, java.sql.Timestamp.from(now));
            insert.setObject(5, java.sql.Timestamp.from(now));
            insert.executeUpdate();
        }

        orgA().when().get("/assistant?limit=1000").then().statusCode(200).body("id", hasItem(id));
        orgA().when().get("/assistant/" + id).then().statusCode(200)
                .body("id", equalTo(id))
                .body("firstMessage", equalTo("kept"))
                .body("name", org.hamcrest.Matchers.nullValue());
        // A PATCH validates the stored document merged with the patch: it names what is wrong ...
        orgA().body("{\"firstMessage\":\"changed\"}").when().patch("/assistant/" + id).then().statusCode(400)
                .body("message", org.hamcrest.Matchers.hasItems("name must be a string"));
        // ... and replacing those fields repairs the row.
        orgA().body("{\"name\":\"repaired\"}").when().patch("/assistant/" + id).then().statusCode(200)
                .body("name", equalTo("repaired")).body("firstMessage", equalTo("kept"));
        orgA().when().delete("/assistant/" + id).then().statusCode(200);
        orgA().when().get("/assistant/" + id).then().statusCode(404);
    }

    @Test
    void aStoredRowThatDoesNotReadCanBeDeletedAsItIs() throws Exception {
        String id = UUID.randomUUID().toString();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "insert into assistant.assistants (org_id, id, document, created_at, updated_at)"
                                + " values (?, ?::uuid, ?::jsonb, now(), now())")) {
            insert.setString(1, TestKeys.ORG_A);
            insert.setString(2, id);
            insert.setString(3, "{\"model\":[1,2,3],\"voice\":\"x\"}");
            insert.executeUpdate();
        }
        orgA().when().get("/assistant?limit=1000").then().statusCode(200).body("id", hasItem(id));
        orgA().when().delete("/assistant/" + id).then().statusCode(200).body("id", equalTo(id));
        orgA().when().get("/assistant/" + id).then().statusCode(404);
    }

    private static BigDecimal metadataNumber(JsonNode assistant) {
        return assistant.at("/metadata/n").decimalValue();
    }
}
