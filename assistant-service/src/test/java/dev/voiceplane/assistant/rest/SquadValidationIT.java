package dev.voiceplane.assistant.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link SquadValidationTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class SquadValidationIT extends SquadValidationTest {
}
