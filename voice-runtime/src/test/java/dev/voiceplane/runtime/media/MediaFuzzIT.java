package dev.voiceplane.runtime.media;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** {@link MediaFuzzTest} against the native executable (docs/native.md, "Tests"). */
@QuarkusIntegrationTest
class MediaFuzzIT extends MediaFuzzTest {
}
