package dev.voiceplane.call.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link SquadRuntimeConfigurationTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class SquadRuntimeConfigurationIT extends SquadRuntimeConfigurationTest {
}
