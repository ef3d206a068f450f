package dev.voiceplane.kit.ops;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** What an SRE relies on: metrics per route and for the pool, the log context, tracing off by default. */
@QuarkusTest
class OperationsTest {

    @Inject
    Vertx vertx;

    @Test
    void metricsCountRequestsPerRouteWithLatencyBucketsAndShowThePool() {
        given().header("Authorization", TestKeys.bearer(TestKeys.KEY_A)).contentType(ContentType.JSON)
                .body("{\"text\": \"measured\"}").when().post("/note").then().statusCode(201);

        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();

        assertTrue(metrics.lines().anyMatch(line -> line.startsWith("http_server_requests_seconds_count{")
                && line.contains("uri=\"/note\"") && line.contains("method=\"POST\"") && line.contains("status=\"201\"")),
                "no request count for POST /note");
        assertTrue(metrics.lines().anyMatch(line -> line.startsWith("http_server_requests_seconds_bucket{")
                && line.contains("uri=\"/note\"") && line.contains("le=\"0.25\"")), "no latency bucket for /note");
        assertTrue(metrics.lines().anyMatch(line -> line.startsWith("agroal_active_count")), "no pool metrics");
        assertTrue(metrics.lines().anyMatch(line -> line.startsWith("agroal_awaiting_count")), "no pool metrics");
    }

    @Test
    void everyLineOfAnAuthenticatedRequestCarriesItsRequestIdAndOrganisation() {
        given().header("Authorization", TestKeys.bearer(TestKeys.KEY_A)).header("X-Request-Id", "trace-me-1")
                .when().get("/log-context")
                .then().statusCode(200)
                .body("requestId", equalTo("trace-me-1"))
                .body("orgId", equalTo(TestKeys.ORG_A));
    }

    @Test
    void runsOnLinuxEpollWhereItLoads() {
        // The kit ships the x86-64 Linux library; on another platform Vert.x keeps NIO, which is not a failure.
        Assumptions.assumeTrue(System.getProperty("os.name").startsWith("Linux")
                && System.getProperty("os.arch").matches("amd64|x86_64"));

        assertTrue(vertx.isNativeTransportEnabled(), "Vert.x runs on NIO: " + vertx.unavailableNativeTransportCause());
    }

    @Test
    void tracingIsOffWithoutACollector() {
        assertTrue(ConfigProvider.getConfig().getValue("quarkus.otel.sdk.disabled", Boolean.class));
    }
}
