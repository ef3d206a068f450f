package dev.voiceplane.file.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link FileUploadTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class FileUploadIT extends FileUploadTest {
}
