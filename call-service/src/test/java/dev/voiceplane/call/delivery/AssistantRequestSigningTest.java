package dev.voiceplane.call.delivery;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.standardwebhooks.Webhook;
import dev.voiceplane.call.repository.DeliveryStore;
import dev.voiceplane.call.service.AssistantRequests;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The synchronous {@code assistant-request} follows the delivery rules (docs/webhooks.md): signed with the
 * organisation's Standard Webhooks secret (verifiable with the standard's library) next to the number's
 * {@code x-vapi-secret}, and refused when its target resolves to a loopback address and private targets are not
 * allowed (the test profile allows them; the refusing case uses a sender built with them disallowed).
 */
@QuarkusTest
class AssistantRequestSigningTest {

    @InjectWireMock
    WireMockServer receiver;

    @Inject
    ObjectMapper json;

    @Inject
    Deliveries deliveries;

    @Inject
    DeliveryConfig config;

    @Inject
    DeliveryStore store;

    @Inject
    Targets targets;

    @Inject
    SigningSecrets secrets;

    @Inject
    DeliveryMetrics metrics;

    @Inject
    Vertx vertx;

    PhoneNumberConfiguration number(String serverUrl) {
        return new PhoneNumberConfiguration(UUID.randomUUID().toString(), TestKeys.ORG_A, "twilio", "twilio",
                "+14155550100", "front desk", null, serverUrl, "number-secret", "AC123", null);
    }

    ObjectNode message() {
        ObjectNode message = json.createObjectNode().put("type", "assistant-request");
        message.putObject("call").put("orgId", TestKeys.ORG_A).put("type", "inboundPhoneCall");
        return message;
    }

    @Test
    void anAssistantRequestIsSignedWithTheOrganisationsSecret() throws Exception {
        String path = "/assistant-request/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(okJson("{\"assistant\":{\"name\":\"from the hook\"}}")));
        AssistantRequests requests = new AssistantRequests(json, deliveries, Duration.ofSeconds(5));

        Optional<ObjectNode> answer = requests.ask(number(receiver.baseUrl() + path), message());

        assertEquals("from the hook", answer.orElseThrow().path("assistant").path("name").asText());
        List<LoggedRequest> got = receiver.findAll(postRequestedFor(urlEqualTo(path)));
        assertEquals(1, got.size());
        LoggedRequest request = got.getFirst();
        assertEquals("number-secret", request.getHeader("x-vapi-secret"));
        assertTrue(request.getBodyAsString().contains("assistant-request"), request.getBodyAsString());
        String secret = orgA().when().get("/call/webhook-secret").then().statusCode(200).extract().path("secret");
        new Webhook(secret).verify(request.getBodyAsString(), DeliveryTest.headers(request));
        long timestamp = Long.parseLong(request.getHeader("webhook-timestamp"));
        assertTrue(Math.abs(timestamp - System.currentTimeMillis() / 1000) < 300);
    }

    @Test
    void aTargetResolvingToLoopbackIsRefusedWhenPrivateTargetsAreNotAllowed() {
        String path = "/assistant-request/" + UUID.randomUUID();
        receiver.stubFor(post(urlEqualTo(path)).willReturn(okJson("{\"assistant\":{\"name\":\"never asked\"}}")));
        Deliveries strict = new Deliveries(TestDeliveryConfig.of(config).allowingPrivate(false), store, targets,
                secrets, metrics, json, vertx);
        AssistantRequests requests = new AssistantRequests(json, strict, Duration.ofSeconds(5));

        // "localhost" is a name that resolves to 127.0.0.1 (and ::1): refused on the resolved address.
        Optional<ObjectNode> answer = requests.ask(number("http://localhost:" + receiver.port() + path), message());

        assertEquals(Optional.empty(), answer);
        assertEquals(0, receiver.findAll(postRequestedFor(urlEqualTo(path))).size());
    }
}
