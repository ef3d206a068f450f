package dev.voiceplane.call.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link VoicemailHandOffTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class VoicemailHandOffIT extends VoicemailHandOffTest {
}
