package dev.voiceplane.credential.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link CredentialValidationTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class CredentialValidationIT extends CredentialValidationTest {
}
