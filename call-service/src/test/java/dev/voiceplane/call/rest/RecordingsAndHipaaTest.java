package dev.voiceplane.call.rest;

import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * The runtime's recordings reach the call and its end-of-call report; a hipaaEnabled call's transcript text never
 * reaches call-service's logs (every line it writes while the call runs and ends is captured, at DEBUG).
 */
@QuarkusTest
class RecordingsAndHipaaTest {

    private static final String SECRET_WORDS = "my account number is 4242";
    private static final String SECRET_REPLY = "your balance is ninety pounds";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ObjectMapper json;

    /** Every log record while installed, with its message formatted. */
    static final class Captured extends Handler implements AutoCloseable {
        final List<String> lines = new CopyOnWriteArrayList<>();
        private final java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        private final java.util.logging.Logger ours = java.util.logging.Logger.getLogger("dev.voiceplane");
        private final Level before = ours.getLevel();

        Captured() {
            root.addHandler(this);
            ours.setLevel(Level.FINE);
        }

        @Override
        public void publish(LogRecord record) {
            String message = record instanceof org.jboss.logmanager.ExtLogRecord extended
                    ? extended.getFormattedMessage() : record.getMessage();
            lines.add(record.getLoggerName() + " " + message + (record.getThrown() == null ? ""
                    : " " + record.getThrown()));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            root.removeHandler(this);
            ours.setLevel(before);
        }
    }

    private static void runtime(String callId, String body) {
        internal(TestKeys.ORG_A).body(body).when().post("/internal/call/" + callId + "/runtime/events").then()
                .statusCode(200);
    }

    @Test
    void aHipaaCallsTranscriptStaysOutOfTheLogsAndItsRecordingsReachTheReport() throws Exception {
        try (Captured logs = new Captured()) {
            String id = orgA().body("{\"assistant\":{\"name\":\"private\",\"hipaaEnabled\":true,\"recordingEnabled\":true,"
                    + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"}}}")
                    .when().post("/call/web").then().statusCode(201).extract().path("id");
            internal(TestKeys.ORG_A).when().post("/internal/call/" + id + "/runtime/attach").then().statusCode(200);
            runtime(id, "{\"sequence\":0,\"type\":\"in-progress\"}");
            runtime(id, "{\"sequence\":1,\"type\":\"message\",\"message\":{\"role\":\"user\",\"message\":\""
                    + SECRET_WORDS + "\",\"secondsFromStart\":1}}");
            runtime(id, "{\"sequence\":2,\"type\":\"message\",\"message\":{\"role\":\"bot\",\"message\":\""
                    + SECRET_REPLY + "\",\"secondsFromStart\":3}}");
            // A message call-service refuses is logged nowhere with its text either.
            internal(TestKeys.ORG_A).body("{\"sequence\":-1,\"type\":\"message\",\"message\":{\"role\":\"user\","
                    + "\"message\":\"" + SECRET_WORDS + "\"}}").when().post("/internal/call/" + id + "/runtime/events")
                    .then().statusCode(400);
            String mono = "https://api.example.com/file/0193a000-0000-7000-8000-000000000001/content";
            String stereo = "https://api.example.com/file/0193a000-0000-7000-8000-000000000002/content";
            runtime(id, "{\"sequence\":3,\"type\":\"ended\",\"endedReason\":\"customer-ended-call\",\"usage\":{"
                    + "\"sttSeconds\":3,\"llmPromptTokens\":10,\"llmCompletionTokens\":5,\"ttsCharacters\":30},"
                    + "\"recordingUrl\":\"" + mono + "\",\"stereoRecordingUrl\":\"" + stereo + "\"}");

            JsonNode call = json.readTree(orgA().when().get("/call/" + id).then().statusCode(200).extract().asString());
            assertEquals(mono, call.path("recordingUrl").asText());
            assertEquals(stereo, call.path("stereoRecordingUrl").asText());
            assertTrue(call.path("transcript").asText().contains(SECRET_WORDS), "the transcript is the call's own");
            // Written when the runtime's ended arrives (FullCallTest): no wait.
            JsonNode report = json.readTree(Outboxes.payloads(dataSource, id, "end-of-call-report").getFirst())
                    .path("message");
            assertEquals(mono, report.path("recordingUrl").asText());
            assertEquals(stereo, report.path("stereoRecordingUrl").asText());

            // The capture sees call-service's loggers down to DEBUG (a warm service may have logged nothing else).
            org.jboss.logging.Logger.getLogger("dev.voiceplane.call.service.RuntimeEvents").debug("capture check");
            assertTrue(logs.lines.stream().anyMatch(line -> line.endsWith("capture check")), logs.lines.toString());
            for (String line : logs.lines) {
                assertFalse(line.contains("account number") || line.contains("4242") || line.contains("balance"),
                        "transcript text in a log line: " + line);
            }
        }
    }
}
