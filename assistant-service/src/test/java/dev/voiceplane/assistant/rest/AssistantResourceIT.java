package dev.voiceplane.assistant.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link AssistantResourceTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class AssistantResourceIT extends AssistantResourceTest {
}
