package dev.voiceplane.call.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link CallFuzzTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class CallFuzzIT extends CallFuzzTest {
}
