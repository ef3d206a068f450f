package dev.voiceplane.credential.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link InternalCredentialResourceTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class InternalCredentialResourceIT extends InternalCredentialResourceTest {
}
