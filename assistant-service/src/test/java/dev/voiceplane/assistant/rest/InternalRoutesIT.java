package dev.voiceplane.assistant.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link InternalRoutesTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class InternalRoutesIT extends InternalRoutesTest {
}
