package dev.voiceplane.runtime.media;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link ToolCallsTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class ToolCallsIT extends ToolCallsTest {
}
