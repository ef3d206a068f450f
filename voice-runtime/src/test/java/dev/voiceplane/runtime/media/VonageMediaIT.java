package dev.voiceplane.runtime.media;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link VonageMediaTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class VonageMediaIT extends VonageMediaTest {
}
