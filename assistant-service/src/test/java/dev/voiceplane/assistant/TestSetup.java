package dev.voiceplane.assistant;

import dev.voiceplane.kit.testing.TestEnvironment;
import dev.voiceplane.kit.testing.WireMockService;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/**
 * Every test of this service runs against the shared test environment (real PostgreSQL, test keys) and a
 * WireMock server standing in for file-service.
 */
@QuarkusTestResource(value = TestEnvironment.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = WireMockService.class, restrictToAnnotatedClass = false, initArgs = @ResourceArg(
        name = WireMockService.URL_PROPERTIES, value = "quarkus.rest-client.file-service.url"))
public class TestSetup {
}
