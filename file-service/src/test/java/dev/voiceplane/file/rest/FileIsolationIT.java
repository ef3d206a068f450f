package dev.voiceplane.file.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link FileIsolationTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class FileIsolationIT extends FileIsolationTest {
}
