package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A delete that races a squad being written with the assistant as a member waits for that squad, then sees it:
 * the squad never ends up naming a deleted assistant.
 */
@QuarkusTest
class ConcurrentDeleteTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aDeleteWaitsForASquadBeingWrittenAndThenRefuses() throws Exception {
        String assistant = createAssistant(orgA());
        UUID squad = UUID.randomUUID();
        try (Connection writer = dataSource.getConnection()) {
            writer.setAutoCommit(false);
            // What SquadService does inside its transaction: lock the members against deletion, write the squad.
            execute(writer, "select id from assistant.assistants where org_id = ? and id = ?::uuid for key share",
                    TestKeys.ORG_A, assistant);
            execute(writer, "insert into assistant.squads (org_id, id, document, created_at, updated_at)"
                    + " values (?, ?::uuid, ?::jsonb, now(), now())", TestKeys.ORG_A, squad.toString(),
                    "{\"members\":[{\"assistantId\":\"" + assistant + "\"}]}");
            execute(writer, "insert into assistant.squad_member_assistants (org_id, squad_id, assistant_id)"
                    + " values (?, ?::uuid, ?::uuid)", TestKeys.ORG_A, squad.toString(), assistant);

            CompletableFuture<Response> delete = CompletableFuture.supplyAsync(
                    () -> orgA().when().delete("/assistant/" + assistant));
            awaitBlockedDelete();
            assertFalse(delete.isDone(), "the delete must wait for the squad's transaction");
            writer.commit();

            Response answer = delete.get(60, TimeUnit.SECONDS);
            assertEquals(409, answer.statusCode());
            assertEquals("assistant is a member of squads: " + squad + "; remove it from them first",
                    answer.jsonPath().getString("message"));
        }
        orgA().when().get("/assistant/" + assistant).then().statusCode(200);
        orgA().when().get("/squad/" + squad).then().statusCode(200)
                .body("members[0].assistantId", org.hamcrest.Matchers.equalTo(assistant));
    }

    /** Waits until a backend waits for a row lock taken by a delete's {@code FOR UPDATE}. */
    private void awaitBlockedDelete() throws Exception {
        for (int attempt = 0; attempt < 600; attempt++) {
            try (Connection observer = dataSource.getConnection();
                    PreparedStatement waiting = observer.prepareStatement("select count(*) from pg_stat_activity"
                            + " where wait_event_type = 'Lock' and query like '%assistants where org_id%for update%'");
                    ResultSet rows = waiting.executeQuery()) {
                rows.next();
                if (rows.getLong(1) > 0) {
                    return;
                }
            }
            Thread.sleep(50);
        }
        assertTrue(false, "the delete never reached the row lock");
    }

    private static void execute(Connection connection, String sql, String... parameters) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setString(i + 1, parameters[i]);
            }
            statement.execute();
        }
    }
}
