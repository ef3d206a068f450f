package dev.voiceplane.file.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link FileFuzzTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class FileFuzzIT extends FileFuzzTest {
}
