package dev.voiceplane.file;

import dev.voiceplane.kit.testing.TestEnvironment;
import io.quarkus.test.common.QuarkusTestResource;

/** Every test of this service runs against the shared test environment (real PostgreSQL, test keys). */
@QuarkusTestResource(value = TestEnvironment.class, restrictToAnnotatedClass = false)
public class TestSetup {
}
