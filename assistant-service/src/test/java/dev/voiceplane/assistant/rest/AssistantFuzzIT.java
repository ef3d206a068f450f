package dev.voiceplane.assistant.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link AssistantFuzzTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class AssistantFuzzIT extends AssistantFuzzTest {
}
