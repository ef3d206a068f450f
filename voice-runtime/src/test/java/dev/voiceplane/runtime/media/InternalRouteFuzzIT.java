package dev.voiceplane.runtime.media;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link InternalRouteFuzzTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class InternalRouteFuzzIT extends InternalRouteFuzzTest {
}
