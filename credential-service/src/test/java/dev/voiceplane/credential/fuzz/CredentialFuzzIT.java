package dev.voiceplane.credential.fuzz;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link CredentialFuzzTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class CredentialFuzzIT extends CredentialFuzzTest {
}
