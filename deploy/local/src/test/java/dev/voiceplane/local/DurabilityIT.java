package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.kit.testing.Eventually;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local stack keeps what it acknowledged. Eight clients write through the gateway (assistants created in
 * assistant-service, one credential each replaced over and over in credential-service) while PostgreSQL is killed
 * as a crash would kill it, then restarted on the same data directory ({@code restart postgres}). Every write
 * answered 2xx reads back afterwards; while the database is down every answer is a 503 with {@code Retry-After} in
 * the error shape, never a 500; once it is back, the same services accept writes again without a restart.
 */
class DurabilityIT {

    private static final String KEY = "key-d";
    private static final int WRITERS = 8;
    private static final int BEFORE_CRASH = 300;
    private static final int AFTER_RESTART = 40;
    private static final Duration EVENTUALLY = Duration.ofSeconds(180);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dataDirectory;

    private static StackUnderTest stack;
    private static HttpClient http;

    @BeforeAll
    static void startStack() throws Exception {
        stack = StackUnderTest.start(dataDirectory, gatewayPort -> Map.of("VOICE_API_KEYS", "org-d:" + KEY));
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stopStack() throws Exception {
        if (stack != null) {
            stack.stop();
        }
    }

    /** An assistant whose creation was answered 201. */
    private record Created(String id, String name) {
    }

    @Test
    void everyAcknowledgedWriteSurvivesAPostgresCrashAndTheOutageIsA503() throws Exception {
        Queue<Created> created = new ConcurrentLinkedQueue<>();
        // credential id -> the highest version whose replacement was answered 200
        Map<String, Integer> replaced = new ConcurrentHashMap<>();
        Queue<String> wrongAnswers = new ConcurrentLinkedQueue<>();
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicInteger unavailable = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);

        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            String credential = UUID.randomUUID().toString();
            writers.add(Thread.ofPlatform().name("writer-" + w).start(() -> {
                for (int n = 0; running.get(); n++) {
                    Answer answer;
                    if (writer % 2 == 0) {
                        String name = "w" + writer + "-" + n;
                        answer = send("POST", "/assistant", "{\"name\":\"" + name + "\"}");
                        if (answer.status() == 201) {
                            created.add(new Created(answer.body().path("id").asText(), name));
                        }
                    } else {
                        answer = send("PUT", "/credential/" + credential,
                                "{\"provider\":\"openai\",\"apiKey\":\"sk-durable\",\"name\":\"v" + n + "\"}");
                        if (answer.status() == 200) {
                            replaced.put(credential, n);
                        }
                    }
                    if (answer.status() / 100 == 2) {
                        acknowledged.incrementAndGet();
                    } else if (isUnavailableInTheErrorShape(answer)) {
                        unavailable.incrementAndGet();
                    } else {
                        wrongAnswers.add(answer.toString());
                    }
                }
            }));
        }
        try {
            Eventually.until("writes acknowledged before the crash", EVENTUALLY,
                    () -> acknowledged.get() >= BEFORE_CRASH);
            stack.killPostgres();
            Eventually.until("503s while PostgreSQL is down", EVENTUALLY, () -> unavailable.get() >= WRITERS);
            stack.restart("postgres");
            int atRestart = acknowledged.get();
            Eventually.until("writes acknowledged after the restart", EVENTUALLY,
                    () -> acknowledged.get() >= atRestart + AFTER_RESTART);
        } finally {
            running.set(false);
            for (Thread writer : writers) {
                writer.join(Duration.ofSeconds(60));
            }
        }

        assertTrue(wrongAnswers.isEmpty(), "answers other than 2xx or 503 + Retry-After in the error shape: "
                + wrongAnswers.stream().limit(10).toList());
        List<String> lost = new ArrayList<>();
        for (Created assistant : created) {
            Answer read = send("GET", "/assistant/" + assistant.id(), null);
            if (read.status() != 200 || !assistant.name().equals(read.body().path("name").asText())) {
                lost.add("assistant " + assistant + " answered " + read);
            }
        }
        for (Map.Entry<String, Integer> credential : replaced.entrySet()) {
            Answer read = send("GET", "/credential/" + credential.getKey(), null);
            String name = read.body().path("name").asText("");
            // The replacement in flight at the crash may have been stored without its answer: never an older one.
            if (read.status() != 200 || !name.startsWith("v")
                    || Integer.parseInt(name.substring(1)) < credential.getValue()) {
                lost.add("credential " + credential.getKey() + " acknowledged at v" + credential.getValue()
                        + " answered " + read);
            }
        }
        assertEquals(List.of(), lost, "acknowledged writes lost after a PostgreSQL crash ("
                + created.size() + " creates, " + replaced.size() + " credentials checked)");
    }

    private static boolean isUnavailableInTheErrorShape(Answer answer) {
        JsonNode body = answer.body();
        return answer.status() == 503 && answer.retryAfter() != null && answer.retryAfter().matches("[0-9]+")
                && body.size() == 3 && body.path("statusCode").asInt() == 503
                && "Service Unavailable".equals(body.path("error").asText()) && body.path("message").isTextual();
    }

    private record Answer(int status, JsonNode body, String retryAfter, String text) {
        @Override
        public String toString() {
            return status + (retryAfter != null ? " (Retry-After " + retryAfter + ")" : "") + " " + text;
        }
    }

    private static Answer send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + stack.gatewayPort + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + KEY);
        if (body != null) {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode parsed;
            try {
                parsed = JSON.readTree(response.body());
            } catch (IOException notJson) {
                parsed = JSON.missingNode();
            }
            return new Answer(response.statusCode(), parsed == null ? JSON.missingNode() : parsed,
                    response.headers().firstValue("Retry-After").orElse(null), response.body());
        } catch (IOException e) {
            return new Answer(-1, JSON.missingNode(), null, "no answer: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(-1, JSON.missingNode(), null, "interrupted");
        }
    }

}
