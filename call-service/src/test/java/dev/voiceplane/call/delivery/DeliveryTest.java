package dev.voiceplane.call.delivery;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static dev.voiceplane.kit.testing.TestClients.orgC;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.standardwebhooks.Webhook;
import dev.voiceplane.call.repository.Outbox;
import dev.voiceplane.call.service.ServerMessages;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Delivery of server messages to a real HTTP receiver (WireMock), by workers the tests start (the test profile
 * disables the replica's own): the calls are created through the API, so the target comes from their frozen
 * configuration; the test schedule is three attempts 100 ms apart.
 */
@QuarkusTest
class DeliveryTest {

    static final String MODEL = "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"}";

    @InjectWireMock
    WireMockServer receiver;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Deliveries deliveries;

    @Inject
    DeliveryConfig config;

    @Inject
    Outbox outbox;

    /** A web call of org A whose assistant sends its server messages to {@code path} with {@code secret}. */
    String callTo(String path, String secret) {
        return callTo(receiver, path, secret);
    }

    static String callTo(WireMockServer receiver, String path, String secret) {
        return orgA().body("{\"assistant\":{\"name\":\"hooks\"," + MODEL + ",\"serverUrl\":\"" + receiver.baseUrl()
                        + path + "\"" + (secret == null ? "" : ",\"serverUrlSecret\":\"" + secret + "\"") + "}}")
                .when().post("/call/web").then().statusCode(201).extract().path("id");
    }

    DeliveryWorker worker(DeliveryConfig settings) {
        return worker(deliveries, settings);
    }

    static DeliveryWorker worker(Deliveries deliveries, DeliveryConfig settings) {
        DeliveryWorker worker = deliveries.newWorker("test-" + UUID.randomUUID(), settings);
        worker.start();
        return worker;
    }

    static JsonPath deliveriesOf(String callId) {
        return orgA().when().get("/call/" + callId + "/deliveries").then().statusCode(200).extract().jsonPath();
    }

    static JsonPath settled(String callId) {
        return Eventually.value("the deliveries of " + callId + " settle", () -> deliveriesOf(callId),
                log -> log.getList("status", String.class).stream()
                        .noneMatch(s -> s.equals("pending") || s.equals("delivering")));
    }

    /** The {@code webhook-id}s of the requests {@code path} received, in the order they arrived. */
    static List<String> arrivals(WireMockServer receiver, String path) {
        List<String> order = new ArrayList<>();
        receiver.getAllServeEvents().stream().filter(e -> e.getRequest().getUrl().equals(path))
                .sorted(java.util.Comparator.comparing(e -> e.getRequest().getLoggedDate()))
                .forEach(e -> order.add(e.getRequest().getHeader("webhook-id")));
        return order;
    }

    static Map<String, List<String>> headers(LoggedRequest request) {
        Map<String, List<String>> headers = new HashMap<>();
        request.getHeaders().all().forEach(h -> headers.put(h.key(), h.values()));
        return headers;
    }

    @Test
    void aMessageArrivesWithTheVapiSecretAndAStandardWebhooksSignature() throws Exception {
        String path = "/hooks/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(200)));
        String callId = callTo(path, "customer-secret");
        DeliveryWorker worker = worker(TestDeliveryConfig.of(config));
        try {
            JsonPath log = settled(callId);
            assertEquals(List.of("delivered"), log.getList("status"));
            assertEquals("status-update", log.getString("[0].type"));
            assertEquals(200, log.getInt("[0].attemptLog[0].statusCode"));
            assertEquals(receiver.baseUrl() + path, log.getString("[0].attemptLog[0].url"));
            String messageId = log.getString("[0].id");

            List<LoggedRequest> got = receiver.findAll(com.github.tomakehurst.wiremock.client.WireMock
                    .postRequestedFor(urlEqualTo(path)));
            assertEquals(1, got.size());
            LoggedRequest request = got.getFirst();
            assertEquals("customer-secret", request.getHeader("x-vapi-secret"));
            assertEquals(messageId, request.getHeader("webhook-id"));
            assertEquals("application/json", request.getHeader("Content-Type"));
            long timestamp = Long.parseLong(request.getHeader("webhook-timestamp"));
            assertTrue(Math.abs(timestamp - System.currentTimeMillis() / 1000) < 300);
            assertTrue(request.getBodyAsString().contains("\"type\": \"status-update\""), request.getBodyAsString());

            // The receiver verifies with the standard's library and the secret the API gives the organisation.
            String secret = orgA().when().get("/call/webhook-secret").then().statusCode(200).extract().path("secret");
            assertTrue(secret.startsWith("whsec_"), secret);
            new Webhook(secret).verify(request.getBodyAsString(), headers(request));
            // Org B's secret is another one and does not verify org A's messages.
            String other = orgB().when().get("/call/webhook-secret").then().statusCode(200).extract().path("secret");
            assertNotEquals(secret, other);
            assertThrowsVerification(other, request);
        } finally {
            worker.stop(java.time.Duration.ofSeconds(5));
        }
    }

    /**
     * Today's {@code server} object: its secret goes in {@code x-vapi-secret}, its custom headers with every
     * message (they cannot replace the signature's), and its {@code timeoutSeconds} bounds each attempt.
     */
    @Test
    void theServerObjectsHeadersAndTimeoutAreHonoured() {
        String path = "/hooks/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).inScenario(path).whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(200).withFixedDelay(3000)).willSetStateTo("fast"));
        receiver.stubFor(post(urlEqualTo(path)).inScenario(path).whenScenarioStateIs("fast")
                .willReturn(aResponse().withStatus(200)));
        String callId = orgA().body("{\"assistant\":{\"name\":\"hooks\"," + MODEL + ",\"server\":{\"url\":\""
                        + receiver.baseUrl() + path + "\",\"secret\":\"object-secret\",\"timeoutSeconds\":1,"
                        + "\"headers\":{\"X-Tenant\":\"t-42\",\"Authorization\":\"Bearer abc\"}}}}")
                .when().post("/call/web").then().statusCode(201).extract().path("id");
        DeliveryWorker worker = worker(TestDeliveryConfig.of(config));
        try {
            JsonPath log = settled(callId);
            assertEquals("delivered", log.getString("[0].status"));
            // The first attempt outlived the server's 1 s and was abandoned; the second was taken.
            assertEquals(List.of("retryable", "delivered"), log.getList("[0].attemptLog.outcome"));
            List<LoggedRequest> got = receiver.findAll(com.github.tomakehurst.wiremock.client.WireMock
                    .postRequestedFor(urlEqualTo(path)));
            LoggedRequest request = got.getLast();
            assertEquals("t-42", request.getHeader("X-Tenant"));
            assertEquals("Bearer abc", request.getHeader("Authorization"));
            assertEquals("object-secret", request.getHeader("x-vapi-secret"));
            assertEquals(log.getString("[0].id"), request.getHeader("webhook-id"));
        } finally {
            worker.stop(java.time.Duration.ofSeconds(5));
        }
    }

    static void assertThrowsVerification(String secret, LoggedRequest request) {
        try {
            new Webhook(secret).verify(request.getBodyAsString(), headers(request));
        } catch (Exception expected) {
            return;
        }
        throw new AssertionError("a message verified with another organisation's secret");
    }

    @Test
    void a500IsRetriedUntilTheReceiverTakesIt() {
        String path = "/hooks/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).inScenario(path).whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(500)).willSetStateTo("up"));
        receiver.stubFor(post(urlEqualTo(path)).inScenario(path).whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(204)));
        String callId = callTo(path, null);
        DeliveryWorker worker = worker(TestDeliveryConfig.of(config));
        try {
            JsonPath log = settled(callId);
            assertEquals("delivered", log.getString("[0].status"));
            assertEquals(List.of(500, 204), log.getList("[0].attemptLog.statusCode"));
            assertEquals(List.of("retryable", "delivered"), log.getList("[0].attemptLog.outcome"));
            assertEquals(2, log.getInt("[0].attempts"));
            // The same webhook-id on both attempts: the receiver can deduplicate.
            List<LoggedRequest> got = receiver.findAll(com.github.tomakehurst.wiremock.client.WireMock
                    .postRequestedFor(urlEqualTo(path)));
            assertEquals(2, got.size());
            assertEquals(got.get(0).getHeader("webhook-id"), got.get(1).getHeader("webhook-id"));
            assertTrue(got.stream().noneMatch(r -> r.containsHeader("x-vapi-secret")));
        } finally {
            worker.stop(java.time.Duration.ofSeconds(5));
        }
    }

    @Test
    void a400IsNotRetriedAndTheDeadLetterCanBeRedelivered() {
        String path = "/hooks/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(400)));
        String callId = callTo(path, null);
        DeliveryWorker worker = worker(TestDeliveryConfig.of(config));
        try {
            JsonPath log = settled(callId);
            assertEquals("dead", log.getString("[0].status"));
            assertEquals(1, log.getInt("[0].attempts"));
            assertEquals(List.of("failed"), log.getList("[0].attemptLog.outcome"));
            assertEquals(400, log.getInt("[0].lastStatusCode"));
            String messageId = log.getString("[0].id");

            // Another organisation cannot see or redeliver it; a message that is not dead is a 409.
            orgB().when().get("/call/" + callId + "/deliveries").then().statusCode(404)
                    .body("statusCode", equalTo(404));
            orgB().when().post("/call/deliveries/" + messageId + "/redeliver").then().statusCode(404);

            receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(200)));
            orgA().when().post("/call/deliveries/" + messageId + "/redeliver").then().statusCode(200)
                    .body("id", equalTo(messageId));
            JsonPath after = Eventually.value("the redelivered message is delivered", () -> deliveriesOf(callId),
                    l -> "delivered".equals(l.getString("[0].status")));
            assertEquals(List.of(400, 200), after.getList("[0].attemptLog.statusCode"));
            orgA().when().post("/call/deliveries/" + messageId + "/redeliver").then().statusCode(409)
                    .body("error", equalTo("Conflict"));
        } finally {
            worker.stop(java.time.Duration.ofSeconds(5));
        }
    }

    @Test
    void aMessageIsDeadAfterTheLastAttempt() {
        String path = "/hooks/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(503)));
        String callId = callTo(path, null);
        DeliveryWorker worker = worker(TestDeliveryConfig.of(config));
        try {
            JsonPath log = settled(callId);
            assertEquals("dead", log.getString("[0].status"));
            assertEquals(config.schedule().size(), log.getInt("[0].attempts"));
            assertEquals(List.of(503, 503, 503), log.getList("[0].attemptLog.statusCode"), log.prettify());
        } finally {
            worker.stop(java.time.Duration.ofSeconds(5));
        }
    }

    @Test
    void aLoopbackTargetIsRefusedUnlessPrivateTargetsAreAllowed() {
        // "localhost" is a name (resolved through /etc/hosts) that resolves to 127.0.0.1.
        String path = "/hooks/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(200)));
        String callId = callTo(path, null);
        DeliveryWorker strict = worker(TestDeliveryConfig.of(config).allowingPrivate(false));
        try {
            JsonPath log = settled(callId);
            assertEquals("dead", log.getString("[0].status"));
            assertEquals(1, log.getInt("[0].attempts"));
            String error = log.getString("[0].attemptLog[0].error");
            assertTrue(error.contains("127.0.0.1") && error.contains("loopback"), error);
            assertEquals(0, receiver.findAll(com.github.tomakehurst.wiremock.client.WireMock
                    .postRequestedFor(urlEqualTo(path))).size());
        } finally {
            strict.stop(java.time.Duration.ofSeconds(5));
        }
    }

    @Test
    void theMessagesOfACallArriveInOrder() throws Exception {
        String path = "/hooks/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).inScenario(path).whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(500)).willSetStateTo("up"));
        receiver.stubFor(post(urlEqualTo(path)).inScenario(path).whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(200)));
        String callId = callTo(path, null);
        // Nineteen more messages of the call, numbered by the outbox as ServerMessages' are (the first, seq 1,
        // fails once). Rows numbered past the call's counter would collide with its next real message (the sweeper
        // ending this call once it is old enough), as they once did when this test wrote seq 2..20 itself.
        for (int n = 2; n <= 20; n++) {
            String payload = "{\"message\":{\"type\":\"status-update\",\"n\":" + n + "}}";
            QuarkusTransaction.requiringNew().run(() -> outbox.add(TestKeys.ORG_A, UUID.fromString(callId),
                    ServerMessages.STATUS_UPDATE, payload));
        }
        DeliveryWorker one = worker(TestDeliveryConfig.of(config).withConcurrency(8));
        DeliveryWorker two = worker(TestDeliveryConfig.of(config).withConcurrency(8));
        try {
            JsonPath log = settled(callId);
            assertEquals(20, log.getList("id").size());
            assertTrue(log.getList("status", String.class).stream().allMatch("delivered"::equals));
            List<String> order = arrivals(receiver, path);
            List<String> expected = new ArrayList<>();
            expected.add(log.getString("[0].id"));
            expected.addAll(log.getList("id", String.class));
            assertEquals(expected, order);
        } finally {
            one.stop(java.time.Duration.ofSeconds(5));
            two.stop(java.time.Duration.ofSeconds(5));
        }
    }

    @Test
    void theSigningSecretRotatesWithAnOverlapDuringWhichBothSign() throws Exception {
        // Org C: a secret of its own for this test.
        String first = orgC().when().get("/call/webhook-secret").then().statusCode(200).extract().path("secret");
        orgC().when().get("/call/webhook-secret").then().statusCode(200).body("secret", equalTo(first))
                .body("previousSecrets.size()", equalTo(0));
        JsonPath rotated = orgC().body("{\"overlapSeconds\":3600}").when().post("/call/webhook-secret/rotate")
                .then().statusCode(200).extract().jsonPath();
        String second = rotated.getString("secret");
        assertNotEquals(first, second);
        assertEquals(List.of(first), rotated.getList("previousSecrets.secret"));
        assertNotNull(rotated.getString("previousSecrets[0].expiresAt"));

        // Signatures made now carry both: a receiver holding either secret accepts the message.
        List<String> keys = deliveries.secrets().current(TestKeys.ORG_C).stream().map(SigningSecrets.Secret::secret)
                .toList();
        assertEquals(List.of(second, first), keys);
        long now = java.time.Instant.now().getEpochSecond();
        String header = Signatures.sign(keys, "m1", now, "{}");
        Map<String, List<String>> headers = Map.of("webhook-id", List.of("m1"), "webhook-timestamp",
                List.of(Long.toString(now)), "webhook-signature", List.of(header));
        new Webhook(first).verify("{}", headers);
        new Webhook(second).verify("{}", headers);

        // Without an overlap the old secret stops signing at once.
        String third = orgC().body("{\"overlapSeconds\":0}").when().post("/call/webhook-secret/rotate")
                .then().statusCode(200).extract().path("secret");
        orgC().when().get("/call/webhook-secret").then().statusCode(200).body("secret", equalTo(third))
                .body("previousSecrets.secret", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem(second)));
        orgC().body("{\"overlapSeconds\":-1}").when().post("/call/webhook-secret/rotate").then().statusCode(400)
                .body("message", org.hamcrest.Matchers.hasItem("overlapSeconds must not be less than 0"));
        orgC().body("{\"overlap\":5}").when().post("/call/webhook-secret/rotate").then().statusCode(400);
        orgC().when().get("/call/webhook-secret").then().statusCode(200).body("secret", equalTo(third));
    }

    @Test
    void deliveriesAreCountedInTheMetrics() {
        String path = "/hooks/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(200)));
        String callId = callTo(path, null);
        DeliveryWorker worker = worker(TestDeliveryConfig.of(config));
        try {
            settled(callId);
        } finally {
            worker.stop(java.time.Duration.ofSeconds(5));
        }
        String metrics = io.restassured.RestAssured.given().when().get("/q/metrics").then().statusCode(200)
                .extract().asString();
        for (String name : new String[] {"voice_webhook_attempts_total{outcome=\"delivered\"",
                "voice_webhook_deliveries_total{outcome=\"delivered\"", "voice_webhook_queue_depth",
                "voice_webhook_oldest_due_age_seconds", "voice_webhook_failures_total", "voice_webhook_dead_letters_total"}) {
            assertTrue(metrics.contains(name), name);
        }
    }

    Map<String, String> statuses(List<UUID> ids) throws Exception {
        return OutboxStatuses.of(dataSource, ids);
    }

}
