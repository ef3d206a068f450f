package dev.voiceplane.credential.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link InternalCredentialListTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class InternalCredentialListIT extends InternalCredentialListTest {
}
