package dev.voiceplane.file.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link InternalFileResourceTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class InternalFileResourceIT extends InternalFileResourceTest {
}
