package dev.voiceplane.file.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * A recording larger than the whole heap streams in and out: 288 MiB of audio in 512 KiB parts, completed into a
 * WAV and read back byte-identical, in a JVM limited to 256 MiB (the {@code bounded-heap} execution, like
 * {@link LargeUploadIT}). Holding the recording whole anywhere — the parts, the completion, the read — would not fit.
 */
@QuarkusTest
class LargeRecordingIT {

    static final int PART = 512 * 1024;
    static final int PARTS = 576;

    @TestHTTPResource("/")
    URI base;

    @Test
    void aRecordingLargerThanTheHeapIsStreamedInAndOut() throws Exception {
        assertTrue(Runtime.getRuntime().maxMemory() <= 256L * 1024 * 1024,
                "run with -Xmx256m, not " + Runtime.getRuntime().maxMemory());
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> started = http.send(internal("/internal/file/recording")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"long-call-stereo.wav\",\"channels\":2,"
                        + "\"sampleRate\":16000}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, started.statusCode(), started.body());
        String upload = JsonPath.from(started.body()).getString("id");

        MessageDigest sent = MessageDigest.getInstance("SHA-256");
        byte[] part = new byte[PART];
        for (int seq = 0; seq < PARTS; seq++) {
            for (int i = 0; i < PART; i++) {
                part[i] = (byte) (i * 7 + seq * 13);
            }
            sent.update(part);
            HttpResponse<String> stored = http.send(internal("/internal/file/recording/" + upload + "/part/" + seq)
                    .header("Content-Type", "application/octet-stream")
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(part)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, stored.statusCode(), stored.body());
        }
        HttpResponse<String> completed = http.send(internal("/internal/file/recording/" + upload + "/complete")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, completed.statusCode(), completed.body());
        long audio = (long) PART * PARTS;
        assertEquals(44 + audio, JsonPath.from(completed.body()).getLong("bytes"));
        String file = JsonPath.from(completed.body()).getString("id");

        HttpResponse<InputStream> content = http.send(HttpRequest.newBuilder(base.resolve("/file/" + file + "/content"))
                .header("Authorization", TestKeys.bearer(TestKeys.KEY_A)).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, content.statusCode());
        try (InputStream back = content.body()) {
            byte[] header = back.readNBytes(44);
            assertEquals(audio, Integer.toUnsignedLong(ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(40)));
            MessageDigest read = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[64 * 1024];
            long total = 0;
            for (int n; (n = back.read(buffer)) > 0; total += n) {
                read.update(buffer, 0, n);
            }
            assertEquals(audio, total);
            assertEquals(HexFormat.of().formatHex(sent.digest()), HexFormat.of().formatHex(read.digest()));
        }
        http.send(HttpRequest.newBuilder(base.resolve("/file/" + file)).header("Authorization",
                TestKeys.bearer(TestKeys.KEY_A)).DELETE().build(), HttpResponse.BodyHandlers.discarding());
    }

    private HttpRequest.Builder internal(String path) {
        return HttpRequest.newBuilder(base.resolve(path))
                .header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN))
                .header("X-Voice-Org-Id", TestKeys.ORG_A);
    }
}
