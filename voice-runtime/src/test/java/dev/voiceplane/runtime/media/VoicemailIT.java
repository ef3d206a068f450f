package dev.voiceplane.runtime.media;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link VoicemailTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class VoicemailIT extends VoicemailTest {
}
