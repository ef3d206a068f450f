package dev.voiceplane.file.rest;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/**
 * {@link S3StoreServiceTest}'s round trip against the native executable (docs/native.md, "Tests"): the AWS SDK's S3
 * client running natively, against S3Proxy in its own JVM. That no chunk of the bytes is kept in PostgreSQL is the
 * JVM test's to check: the executable's database is not reachable from here.
 */
@QuarkusIntegrationTest
@TestProfile(S3StoreServiceTest.S3Store.class)
class S3StoreIT {

    @Test
    void uploadReadAndDeleteGoThroughTheBucket() throws Exception {
        S3StoreServiceTest.roundTripThroughTheBucket(key -> { });
    }
}
