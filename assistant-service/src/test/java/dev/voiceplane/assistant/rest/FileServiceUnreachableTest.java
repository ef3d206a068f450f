package dev.voiceplane.assistant.rest;

import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestEnvironment;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** With nothing listening where file-service should be, a write that names files is a 503 and writes nothing. */
@QuarkusTest
@TestProfile(FileServiceUnreachableTest.NothingListening.class)
class FileServiceUnreachableTest {

    /** file-service's address is a port that was free a moment ago: connections are refused. */
    public static class NothingListening implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            try (ServerSocket socket = new ServerSocket(0)) {
                return Map.of("quarkus.rest-client.file-service.url", "http://localhost:" + socket.getLocalPort());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(TestEnvironment.class));
        }

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }
    }

    @Inject
    AgroalDataSource dataSource;

    @Test
    void connectionRefusedIsA503AndNothingIsWritten() throws Exception {
        String name = "unreachable " + newId();
        String body = "{\"name\":\"" + name + "\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\","
                + "\"knowledgeBase\":{\"provider\":\"canonical\",\"fileIds\":[\"" + newId() + "\"]}}}";
        orgA().body(body).when().post("/assistant")
                .then().statusCode(503)
                .body("statusCode", equalTo(503))
                .body("error", equalTo("Service Unavailable"))
                .body("message", startsWith("file-service is unavailable"));
        orgA().body("{\"members\":[{\"assistant\":" + body + "}]}").when().post("/squad").then().statusCode(503);
        String id = orgA().body("{\"name\":\"" + name + "\"}").when().post("/assistant").then().statusCode(201)
                .extract().path("id");
        orgA().body(body).when().patch("/assistant/" + id).then().statusCode(503);
        assertEquals(1, TestDatabase.count(dataSource, "select count(*) from assistant.assistants where document->>'name' = ?", name));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from assistant.squads where document::text like ?", "%" + name + "%"));
        orgA().when().get("/assistant/" + id).then().statusCode(200).body("model", org.hamcrest.Matchers.nullValue());
    }

}
