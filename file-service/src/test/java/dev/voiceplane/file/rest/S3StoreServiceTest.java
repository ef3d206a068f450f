package dev.voiceplane.file.rest;

import static dev.voiceplane.file.Uploads.uploaded;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.file.S3ProxyServer;
import dev.voiceplane.file.TestDocuments;
import dev.voiceplane.file.Uploads;
import dev.voiceplane.kit.testing.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/** With {@code voice.file.store=s3} the service keeps bytes in the bucket (S3Proxy here) and none in PostgreSQL. */
@QuarkusTest
@TestProfile(S3StoreServiceTest.S3Store.class)
class S3StoreServiceTest {

    public static class S3Store implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(S3ProxyServer.class));
        }
    }

    @Inject
    AgroalDataSource dataSource;

    @Test
    void uploadReadAndDeleteGoThroughTheBucket() throws Exception {
        roundTripThroughTheBucket(key -> assertEquals(0,
                TestDatabase.count(dataSource, "select count(*) from file.blob_chunks where storage_key = ?", key)));
    }

    /**
     * A PDF uploaded, indexed, found in the bucket under its key, served back whole, deleted from the bucket: what a
     * client sees with the S3 store, the JVM's service or the executable ({@link S3StoreIT}). {@code stored} checks
     * the service's side of the stored key.
     */
    static void roundTripThroughTheBucket(KeyCheck stored) throws Exception {
        byte[] pdf = TestDocuments.pdf("Stored in a bucket.");
        String id = uploaded("bucket.pdf", pdf);
        Map<String, Object> file = orgA().when().get("/file/" + id).then().statusCode(200)
                .body("bucket", equalTo(S3ProxyServer.BUCKET))
                .body("status", equalTo("indexed"))
                .extract().jsonPath().getMap("$");
        String key = (String) file.get("key");
        stored.check(key);
        try (S3Client s3 = S3ProxyServer.client(S3ProxyServer.endpoint())) {
            byte[] inBucket = s3.getObjectAsBytes(get -> get.bucket(S3ProxyServer.BUCKET).key(key)).asByteArray();
            assertArrayEquals(pdf, inBucket);

            byte[] served = Uploads.orgA().when().get("/file/" + id + "/content").then().statusCode(200)
                    .extract().asByteArray();
            assertArrayEquals(pdf, served);

            orgA().when().delete("/file/" + id).then().statusCode(200);
            assertTrue(s3.listObjectsV2(list -> list.bucket(S3ProxyServer.BUCKET).prefix(key)).contents().isEmpty());
            assertFalse(s3.listObjectsV2(list -> list.bucket(S3ProxyServer.BUCKET)).contents().stream()
                    .anyMatch(object -> object.key().equals(key)));
        }
        orgA().when().get("/file/" + id + "/content").then().statusCode(404);
    }

    /** A check of what the service did with a stored key. */
    @FunctionalInterface
    interface KeyCheck {
        void check(String key) throws Exception;
    }
}
