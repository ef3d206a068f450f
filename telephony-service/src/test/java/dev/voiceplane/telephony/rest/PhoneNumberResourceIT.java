package dev.voiceplane.telephony.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link PhoneNumberResourceTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class PhoneNumberResourceIT extends PhoneNumberResourceTest {
}
