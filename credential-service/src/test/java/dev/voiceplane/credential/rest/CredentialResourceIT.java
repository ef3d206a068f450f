package dev.voiceplane.credential.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link CredentialResourceTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class CredentialResourceIT extends CredentialResourceTest {
}
