package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.voiceplane.kit.testing.Eventually;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A delete that races a squad being written with the assistant as a member waits for that squad, then sees it:
 * the squad never ends up naming a deleted assistant. Both sides are the real service paths ({@code POST /squad}
 * and {@code DELETE /assistant/{id}}); the test only holds the squad's write open at the moment it has locked its
 * members, by taking a table lock that its insert must wait for.
 */
@QuarkusTest
class ConcurrentDeleteTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aDeleteWaitsForASquadBeingWrittenAndThenRefuses() throws Exception {
        String assistant = createAssistant(orgA());
        CompletableFuture<Response> squadWrite;
        CompletableFuture<Response> delete;
        // Two threads of its own: the common pool may have a single thread on a small machine.
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try (Connection gate = dataSource.getConnection()) {
            gate.setAutoCommit(false);
            try (Statement statement = gate.createStatement()) {
                // Blocks inserts into squads (not reads): the squad's transaction stops after locking its members.
                statement.execute("lock table assistant.squads in share mode");
            }
            String members = "{\"members\":[{\"assistantId\":\"" + assistant + "\"}]}";
            squadWrite = CompletableFuture.supplyAsync(() -> orgA().body(members).when().post("/squad"), clients);
            awaitLockWait("%insert into assistant.squads%");

            delete = CompletableFuture.supplyAsync(() -> orgA().when().delete("/assistant/" + assistant), clients);
            awaitLockWait("%assistants where org_id%for update%");
            assertFalse(delete.isDone(), "the delete must wait for the squad's transaction");
            gate.commit();
        } finally {
            clients.shutdown();
        }
        Response squad = squadWrite.get(60, TimeUnit.SECONDS);
        assertEquals(201, squad.statusCode(), squad.asString());
        String squadId = squad.jsonPath().getString("id");

        Response answer = delete.get(60, TimeUnit.SECONDS);
        assertEquals(409, answer.statusCode());
        assertEquals("assistant is a member of squads: " + squadId + "; remove it from them first",
                answer.jsonPath().getString("message"));
        orgA().when().get("/assistant/" + assistant).then().statusCode(200);
        orgA().when().get("/squad/" + squadId).then().statusCode(200)
                .body("members[0].assistantId", org.hamcrest.Matchers.equalTo(assistant));
    }

    /** Waits (bounded) until a backend running a statement like {@code pattern} waits for a lock. */
    private void awaitLockWait(String pattern) {
        Eventually.until("a statement like " + pattern + " waiting for a lock", Duration.ofSeconds(30),
                () -> waitingForALock(pattern));
    }

    private boolean waitingForALock(String pattern) {
        try (Connection observer = dataSource.getConnection();
                PreparedStatement waiting = observer.prepareStatement("select count(*) from pg_stat_activity"
                        + " where wait_event_type = 'Lock' and query like ?")) {
            waiting.setString(1, pattern);
            try (ResultSet rows = waiting.executeQuery()) {
                rows.next();
                return rows.getLong(1) > 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
