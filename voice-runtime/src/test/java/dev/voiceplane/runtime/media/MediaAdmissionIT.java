package dev.voiceplane.runtime.media;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link MediaAdmissionTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class MediaAdmissionIT extends MediaAdmissionTest {
}
