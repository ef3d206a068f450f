package dev.voiceplane.file.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.file.Uploads;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory stays bounded whatever the file size: a 100 MiB upload, and reading it back, in a JVM whose whole heap
 * (this test, RestAssured and the service together) is limited to 256 MiB. Run by the {@code bounded-heap} surefire
 * execution with {@code -Xmx256m}; the limit is checked below so the test cannot pass with a larger heap by mistake.
 */
@QuarkusTest
@TestProfile(LargeUploadIT.LargeFiles.class)
class LargeUploadIT {

    static final long SIZE = 100L * 1024 * 1024;

    public static class LargeFiles implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("voice.file.max-size", "128M", "quarkus.http.limits.max-body-size", "160M");
        }
    }

    @TempDir
    Path dir;

    @TestHTTPResource("/")
    URI base;

    @Test
    void aHundredMegabyteUploadFitsA256MegabyteHeap() throws Exception {
        assertTrue(Runtime.getRuntime().maxMemory() <= 256L * 1024 * 1024,
                "run with -Xmx256m, not " + Runtime.getRuntime().maxMemory());
        Path file = dir.resolve("big.csv");
        String sent = write(file);

        // java.net.http on both sides: it streams the file from disk and the answer from the socket, where
        // RestAssured would hold a response body in memory to validate it.
        HttpClient http = HttpClient.newHttpClient();
        String boundary = "voiceplane-large-upload";
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(base.resolve("/file"))
                .header("Authorization", TestKeys.bearer(TestKeys.KEY_A))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.concat(
                        HttpRequest.BodyPublishers.ofString("--" + boundary + "\r\nContent-Disposition: form-data;"
                                + " name=\"file\"; filename=\"big.csv\"\r\nContent-Type: text/csv\r\n\r\n"),
                        HttpRequest.BodyPublishers.ofFile(file),
                        HttpRequest.BodyPublishers.ofString("\r\n--" + boundary + "--\r\n")))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        JsonPath json = JsonPath.from(created.body());
        assertEquals(SIZE, json.getLong("bytes"));
        assertEquals("text/csv", json.getString("mimetype"));
        // Over the 5 million character limit: kept, not indexed.
        assertEquals("not_indexed", json.getString("status"));
        String id = json.getString("id");

        HttpResponse<InputStream> content = http.send(HttpRequest.newBuilder(base.resolve("/file/" + id + "/content"))
                .header("Authorization", TestKeys.bearer(TestKeys.KEY_A)).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, content.statusCode());
        try (InputStream back = content.body()) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            for (int n; (n = back.read(buffer)) > 0; total += n) {
                digest.update(buffer, 0, n);
            }
            assertEquals(SIZE, total);
            assertEquals(sent, HexFormat.of().formatHex(digest.digest()));
        }
        Uploads.orgA().when().delete("/file/" + id).then().statusCode(200);
    }

    /** 100 MiB of CSV rows, written and hashed a line at a time. */
    private static String write(Path file) throws IOException, java.security.NoSuchAlgorithmException {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] line = "row,12345678,some text of the row\n".getBytes(StandardCharsets.US_ASCII);
        try (OutputStream out = Files.newOutputStream(file)) {
            long written = 0;
            while (written < SIZE) {
                int n = (int) Math.min(line.length, SIZE - written);
                out.write(line, 0, n);
                digest.update(line, 0, n);
                written += n;
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
