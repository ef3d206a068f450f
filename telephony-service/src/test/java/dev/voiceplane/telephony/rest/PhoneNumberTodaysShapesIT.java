package dev.voiceplane.telephony.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link PhoneNumberTodaysShapesTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class PhoneNumberTodaysShapesIT extends PhoneNumberTodaysShapesTest {
}
