package dev.voiceplane.assistant.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link OperationsTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class OperationsIT extends OperationsTest {
}
