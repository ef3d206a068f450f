package dev.voiceplane.assistant.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link IsolationTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class IsolationIT extends IsolationTest {
}
