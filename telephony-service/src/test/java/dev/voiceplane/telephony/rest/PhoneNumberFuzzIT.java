package dev.voiceplane.telephony.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link PhoneNumberFuzzTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class PhoneNumberFuzzIT extends PhoneNumberFuzzTest {
}
