package dev.voiceplane.telephony.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link TransferTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class TransferIT extends TransferTest {
}
