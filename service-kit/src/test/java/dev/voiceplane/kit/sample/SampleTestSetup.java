package dev.voiceplane.kit.sample;

import dev.voiceplane.kit.testing.TestEnvironment;
import io.quarkus.test.common.QuarkusTestResource;

/** Registers the shared test environment (PostgreSQL, keys, keyset) for every test of this module. */
@QuarkusTestResource(value = TestEnvironment.class, restrictToAnnotatedClass = false)
public class SampleTestSetup {
}
