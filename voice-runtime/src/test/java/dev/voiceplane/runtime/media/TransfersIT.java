package dev.voiceplane.runtime.media;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link TransfersTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class TransfersIT extends TransfersTest {
}
