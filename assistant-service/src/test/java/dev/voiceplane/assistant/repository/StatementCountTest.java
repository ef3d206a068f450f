package dev.voiceplane.assistant.repository;

import static dev.voiceplane.assistant.rest.Clients.createAssistant;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import dev.voiceplane.kit.testing.TestKeys;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.Test;

/**
 * How many SQL statements a request sends, counted by Hibernate's statistics: a GET by id is one query, a list
 * is one query, and squads cost the same whatever the number of members (no N+1).
 */
@QuarkusTest
class StatementCountTest {

    @Inject
    SessionFactory sessionFactory;

    @Test
    void readsAreOneStatement() {
        String assistant = createAssistant(orgA(), "{\"name\":\"counted\"}");
        String squad = squadOf(members(40));
        assertEquals(1, statements(() -> orgA().when().get("/assistant/" + assistant).then().statusCode(200)));
        assertEquals(1, statements(() -> orgA().when().get("/squad/" + squad).then().statusCode(200)));
        assertEquals(1, statements(() -> orgA().queryParam("limit", 50).when().get("/assistant").then().statusCode(200)));
        assertEquals(1, statements(() -> orgA().queryParam("limit", 50).when().get("/squad").then().statusCode(200)));
    }

    @Test
    void squadWritesDoNotGrowWithTheirMembers() {
        List<String> few = members(1);
        List<String> many = members(60);
        long createFew = statements(() -> squadOf(few));
        long createMany = statements(() -> squadOf(many));
        assertEquals(createFew, createMany, "creating a squad of 1 or 60 members");

        String squad = squadOf(few);
        long patchFew = statements(() -> orgA().body(body(few)).when().patch("/squad/" + squad).then().statusCode(200));
        long patchMany = statements(() -> orgA().body(body(many)).when().patch("/squad/" + squad).then().statusCode(200));
        assertEquals(patchFew, patchMany, "patching a squad to 1 or 60 members");

    }

    @Test
    void aBatchCheckIsOneStatement() {
        List<String> ids = members(30);
        String asked = ids.stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "{\"ids\":[", "]}"));
        assertEquals(1, statements(() -> internal(TestKeys.ORG_A).body(asked).when().post("/internal/assistant/lookup")
                .then().statusCode(200)));
    }

    private String squadOf(List<String> assistantIds) {
        return orgA().body(body(assistantIds)).when().post("/squad").then().statusCode(201).extract().path("id");
    }

    private static List<String> members(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(createAssistant(orgA()));
        }
        return ids;
    }

    private static String body(List<String> assistantIds) {
        return assistantIds.stream().map(id -> "{\"assistantId\":\"" + id + "\"}")
                .collect(Collectors.joining(",", "{\"members\":[", "]}"));
    }

    private long statements(Runnable request) {
        Statistics statistics = sessionFactory.getStatistics();
        long before = statistics.getPrepareStatementCount();
        request.run();
        return statistics.getPrepareStatementCount() - before;
    }
}
