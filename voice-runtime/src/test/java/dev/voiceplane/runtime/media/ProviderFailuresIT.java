package dev.voiceplane.runtime.media;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link ProviderFailuresTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class ProviderFailuresIT extends ProviderFailuresTest {
}
