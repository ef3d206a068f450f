package dev.voiceplane.assistant.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link AssistantPatchTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class AssistantPatchIT extends AssistantPatchTest {
}
