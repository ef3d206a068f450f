package dev.voiceplane.kit.sample;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.notFound;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.client.PeerServices;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.faulttolerance.api.CircuitBreakerMaintenance;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The kit's internal client: headers, the answer rules, retries, the breaker and the one 503. */
@QuarkusTest
class PeerServiceTest {

    @InjectWireMock
    WireMockServer peer;

    @Inject
    CircuitBreakerMaintenance breakers;

    @Inject
    PeerServices peers;

    @BeforeEach
    void closeCircuit() {
        peers.named(PeerSampleResource.PEER); // the breaker exists once its peer has been named
        breakers.reset(PeerSampleResource.PEER);
    }

    private static String path(String id) {
        return "/internal/thing/" + id;
    }

    @Test
    void aCallCarriesTheServiceTokenTheOrganisationAndTheRequestId() {
        String id = TestClients.newId();
        peer.stubFor(get(urlEqualTo(path(id))).willReturn(okJson("{\"name\":\"x\"}")));
        orgA().header("X-Request-Id", "trace-" + id).when().get("/peer-sample/" + id)
                .then().statusCode(200).body("name", equalTo("x"));
        peer.verify(1, getRequestedFor(urlEqualTo(path(id)))
                .withHeader("Authorization", WireMock.equalTo(TestKeys.bearer(TestKeys.INTERNAL_TOKEN)))
                .withHeader("X-Voice-Org-Id", WireMock.equalTo(TestKeys.ORG_A))
                .withHeader("X-Request-Id", WireMock.equalTo("trace-" + id)));
    }

    @Test
    void a404IsAnAnswerAndNeverOpensTheCircuit() {
        String missing = TestClients.newId();
        peer.stubFor(get(urlEqualTo(path(missing))).willReturn(notFound()));
        for (int i = 0; i < 15; i++) {
            orgA().when().get("/peer-sample/" + missing).then().statusCode(404)
                    .body("message", equalTo("Thing not found"));
        }
        assertEquals(15, peer.findAll(getRequestedFor(urlEqualTo(path(missing)))).size(), "a 404 is not retried");
        String present = TestClients.newId();
        peer.stubFor(get(urlEqualTo(path(present))).willReturn(okJson("{\"name\":\"y\"}")));
        orgA().when().get("/peer-sample/" + present).then().statusCode(200);
    }

    @Test
    void anotherClientErrorIsARejectionThatIsNotRetried() {
        String id = TestClients.newId();
        peer.stubFor(get(urlEqualTo(path(id))).willReturn(aResponse().withStatus(422)));
        orgA().when().get("/peer-sample/" + id).then().statusCode(400)
                .body("message[0]", equalTo("the peer refused the request with 422"));
        assertEquals(1, peer.findAll(getRequestedFor(urlEqualTo(path(id)))).size());
    }

    @Test
    void aServerErrorIsRetriedAndASuccessAfterItIsTheAnswer() {
        String id = TestClients.newId();
        String scenario = "flaky-" + id;
        peer.stubFor(get(urlEqualTo(path(id))).inScenario(scenario).whenScenarioStateIs(STARTED)
                .willReturn(aResponse().withStatus(503)).willSetStateTo("second"));
        peer.stubFor(get(urlEqualTo(path(id))).inScenario(scenario).whenScenarioStateIs("second")
                .willReturn(okJson("{\"name\":\"z\"}")));
        orgA().when().get("/peer-sample/" + id).then().statusCode(200).body("name", equalTo("z"));
        assertEquals(2, peer.findAll(getRequestedFor(urlEqualTo(path(id)))).size());
    }

    @Test
    void whatKeepsFailingIsOne503InTheErrorShape() {
        String id = TestClients.newId();
        peer.stubFor(get(urlEqualTo(path(id))).willReturn(aResponse().withStatus(500)));
        orgA().when().get("/peer-sample/" + id).then().statusCode(503)
                .body("statusCode", equalTo(503))
                .body("error", equalTo("Service Unavailable"))
                .body("message", equalTo("peer-sample is unavailable, so the thing cannot be read;"
                        + " nothing was written, try again later"));
        assertEquals(3, peer.findAll(getRequestedFor(urlEqualTo(path(id)))).size(), "one call and two retries");
    }
}
