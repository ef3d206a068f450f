package dev.voiceplane.assistant.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link SquadResourceTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class SquadResourceIT extends SquadResourceTest {
}
