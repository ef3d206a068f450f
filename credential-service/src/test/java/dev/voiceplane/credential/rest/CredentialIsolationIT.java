package dev.voiceplane.credential.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link CredentialIsolationTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class CredentialIsolationIT extends CredentialIsolationTest {
}
