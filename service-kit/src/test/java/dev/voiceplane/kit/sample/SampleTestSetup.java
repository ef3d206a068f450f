package dev.voiceplane.kit.sample;

import dev.voiceplane.kit.testing.TestEnvironment;
import dev.voiceplane.kit.testing.WireMockService;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;

/**
 * Registers the shared test environment (PostgreSQL, keys, keyset) for every test of this module, and a WireMock
 * server that plays the peer service of {@link PeerSampleResource}.
 */
@QuarkusTestResource(value = TestEnvironment.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = WireMockService.class, restrictToAnnotatedClass = false, initArgs = @ResourceArg(
        name = WireMockService.URL_PROPERTIES, value = "quarkus.rest-client.peer-sample.url"))
public class SampleTestSetup {
}
