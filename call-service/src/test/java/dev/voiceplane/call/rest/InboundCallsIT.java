package dev.voiceplane.call.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link InboundCallsTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class InboundCallsIT extends InboundCallsTest {
}
