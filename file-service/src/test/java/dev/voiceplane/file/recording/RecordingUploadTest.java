package dev.voiceplane.file.recording;

import static dev.voiceplane.kit.testing.TestClients.as;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The runtime's recording upload (docs/files.md, "Recordings"): parts streamed in order, completed once into a WAV
 * file readable with the organisation's key only; retries, gaps, bad bodies and other organisations answered 4xx.
 */
@QuarkusTest
class RecordingUploadTest {

    @Inject
    RecordingUploads uploads;

    private static RequestSpecification runtime(String org) {
        return internal(org);
    }

    private static String started(String org, int channels, int rate) {
        return runtime(org).body("{\"name\":\"call-1234-stereo.wav\",\"channels\":" + channels + ",\"sampleRate\":" + rate
                + "}").when().post("/internal/file/recording").then().statusCode(201)
                .body("parts", equalTo(0)).body("bytes", equalTo(0)).extract().path("id");
    }

    private static RequestSpecification part(String org, byte[] audio) {
        return given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN))
                .header("X-Voice-Org-Id", org).contentType("application/octet-stream").body(audio);
    }

    private static byte[] audio(int bytes, int seed) {
        byte[] audio = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            audio[i] = (byte) (i * 31 + seed);
        }
        return audio;
    }

    @Test
    void partsStreamedInOrderBecomeOneWavFileReadableWithTheOrganisationsKey() {
        String upload = started(TestKeys.ORG_A, 2, 8000);
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        for (int seq = 0; seq < 3; seq++) {
            byte[] audio = audio(64_000 + seq * 4, seq);
            sent.writeBytes(audio);
            part(TestKeys.ORG_A, audio).when().put("/internal/file/recording/" + upload + "/part/" + seq)
                    .then().statusCode(200).body("parts", equalTo(seq + 1)).body("bytes", equalTo(sent.size()));
        }
        // Nothing is a file before the completion: no half recording can be read as a whole one.
        as(TestKeys.KEY_A).when().get("/file").then().statusCode(200)
                .body("originalName", not(hasItem("call-1234-stereo.wav")));

        String file = runtime(TestKeys.ORG_A).when().post("/internal/file/recording/" + upload + "/complete")
                .then().statusCode(200)
                .body("mimetype", equalTo("audio/wav"))
                .body("status", equalTo("not_indexed"))
                .body("originalName", equalTo("call-1234-stereo.wav"))
                .body("bytes", equalTo(44 + sent.size()))
                .body("orgId", equalTo(TestKeys.ORG_A))
                .extract().path("id");

        byte[] wav = as(TestKeys.KEY_A).when().get("/file/" + file + "/content").then().statusCode(200)
                .header("Content-Type", equalTo("audio/wav")).extract().asByteArray();
        ByteBuffer header = ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("RIFF", new String(wav, 0, 4));
        assertEquals(36 + sent.size(), header.getInt(4));
        assertEquals("WAVEfmt ", new String(wav, 8, 8));
        assertEquals(1, header.getShort(20), "PCM");
        assertEquals(2, header.getShort(22), "channels");
        assertEquals(8000, header.getInt(24), "sample rate");
        assertEquals(32000, header.getInt(28), "byte rate");
        assertEquals(16, header.getShort(34), "bits per sample");
        assertEquals("data", new String(wav, 36, 4));
        assertEquals(sent.size(), header.getInt(40));
        assertArrayEquals(sent.toByteArray(), Arrays.copyOfRange(wav, 44, wav.length));

        // Another organisation's key: the file does not exist for it.
        as(TestKeys.KEY_B).when().get("/file/" + file + "/content").then().statusCode(404);
        as(TestKeys.KEY_B).when().get("/file/" + file).then().statusCode(404);

        // A repeated completion (the runtime's retry) answers the same file; the upload takes no more parts.
        runtime(TestKeys.ORG_A).when().post("/internal/file/recording/" + upload + "/complete").then()
                .statusCode(200).body("id", equalTo(file));
        part(TestKeys.ORG_A, audio(4, 0)).when().put("/internal/file/recording/" + upload + "/part/3")
                .then().statusCode(409);
    }

    @Test
    void aRetriedPartChangesNothingAndAGapIsRefused() {
        String upload = started(TestKeys.ORG_A, 1, 16000);
        byte[] first = audio(320, 1);
        part(TestKeys.ORG_A, first).when().put("/internal/file/recording/" + upload + "/part/0").then().statusCode(200);
        part(TestKeys.ORG_A, audio(640, 9)).when().put("/internal/file/recording/" + upload + "/part/0")
                .then().statusCode(200).body("parts", equalTo(1)).body("bytes", equalTo(320));
        part(TestKeys.ORG_A, audio(320, 2)).when().put("/internal/file/recording/" + upload + "/part/2")
                .then().statusCode(409).body("message", equalTo("part 1 is expected next, not part 2"));
        byte[] wav = as(TestKeys.KEY_A).when().get("/file/" + runtime(TestKeys.ORG_A).when()
                .post("/internal/file/recording/" + upload + "/complete").then().statusCode(200).extract().path("id")
                + "/content").then().statusCode(200).extract().asByteArray();
        assertArrayEquals(first, Arrays.copyOfRange(wav, 44, wav.length));
    }

    @Test
    void anEmptyRecordingIsAValidWavWithNoAudio() {
        String upload = started(TestKeys.ORG_A, 1, 8000);
        String file = runtime(TestKeys.ORG_A).when().post("/internal/file/recording/" + upload + "/complete")
                .then().statusCode(200).body("bytes", equalTo(44)).extract().path("id");
        byte[] wav = as(TestKeys.KEY_A).when().get("/file/" + file + "/content").then().statusCode(200)
                .extract().asByteArray();
        assertEquals(44, wav.length);
        assertEquals(0, ByteBuffer.wrap(wav).order(ByteOrder.LITTLE_ENDIAN).getInt(40));
    }

    @Test
    void anotherOrganisationsUploadIsNotFound() {
        String upload = started(TestKeys.ORG_A, 1, 8000);
        part(TestKeys.ORG_B, audio(2, 0)).when().put("/internal/file/recording/" + upload + "/part/0")
                .then().statusCode(404).body("statusCode", equalTo(404));
        runtime(TestKeys.ORG_B).when().post("/internal/file/recording/" + upload + "/complete").then().statusCode(404);
        runtime(TestKeys.ORG_B).when().delete("/internal/file/recording/" + upload).then().statusCode(404);
        runtime(TestKeys.ORG_A).when().post("/internal/file/recording/" + newId() + "/complete").then().statusCode(404);
        runtime(TestKeys.ORG_A).when().post("/internal/file/recording/not-an-id/complete").then().statusCode(404);
        // Still org A's, untouched.
        part(TestKeys.ORG_A, audio(2, 0)).when().put("/internal/file/recording/" + upload + "/part/0")
                .then().statusCode(200).body("parts", equalTo(1));
    }

    @Test
    void badStartsAndPartsAreRefusedWithTheReason() {
        runtime(TestKeys.ORG_A).body("{\"name\":\"a.wav\",\"channels\":3,\"sampleRate\":8000}")
                .when().post("/internal/file/recording").then().statusCode(400)
                .body("message", contains("channels must be 1 or 2"));
        runtime(TestKeys.ORG_A).body("{\"name\":\"a.wav\",\"channels\":1,\"sampleRate\":44100}")
                .when().post("/internal/file/recording").then().statusCode(400)
                .body("message", contains("sampleRate must be one of 8000, 16000, 24000"));
        runtime(TestKeys.ORG_A).body("{\"name\":\"a.wav\",\"channels\":1,\"sampleRate\":8000,\"extra\":1}")
                .when().post("/internal/file/recording").then().statusCode(400)
                .body("message", contains("property extra should not exist"));
        runtime(TestKeys.ORG_A).body("{\"channels\":1,\"sampleRate\":8000}")
                .when().post("/internal/file/recording").then().statusCode(400);
        runtime(TestKeys.ORG_A).body("{\"name\":\"a.wav\",\"channels\":\"1\",\"sampleRate\":8000}")
                .when().post("/internal/file/recording").then().statusCode(400);

        String upload = started(TestKeys.ORG_A, 2, 8000);
        part(TestKeys.ORG_A, new byte[0]).when().put("/internal/file/recording/" + upload + "/part/0")
                .then().statusCode(400).body("message", contains("a part holds audio: the body is empty"));
        part(TestKeys.ORG_A, audio(6, 0)).when().put("/internal/file/recording/" + upload + "/part/0")
                .then().statusCode(400).body("message", contains(
                        "a part holds whole frames of 16-bit samples (4 bytes each for 2 channel(s)), not 6 bytes"));
        part(TestKeys.ORG_A, audio(512 * 1024 + 4, 0)).when().put("/internal/file/recording/" + upload + "/part/0")
                .then().statusCode(413).body("message", equalTo("a part is at most 524288 bytes"));
        part(TestKeys.ORG_A, audio(4, 0)).when().put("/internal/file/recording/" + upload + "/part/first")
                .then().statusCode(400);
        part(TestKeys.ORG_A, audio(4, 0)).when().put("/internal/file/recording/" + upload + "/part/-1")
                .then().statusCode(400);
        runtime(TestKeys.ORG_A).body("{\"audio\":\"AAAA\"}").when().put("/internal/file/recording/" + upload + "/part/0")
                .then().statusCode(415);
        // None of it was stored.
        part(TestKeys.ORG_A, audio(4, 0)).when().put("/internal/file/recording/" + upload + "/part/0")
                .then().statusCode(200).body("parts", equalTo(1)).body("bytes", equalTo(4));
    }

    @Test
    void theRoutesTakeTheServiceTokenOnly() {
        as(TestKeys.KEY_A).body("{\"name\":\"a.wav\",\"channels\":1,\"sampleRate\":8000}")
                .when().post("/internal/file/recording").then().statusCode(401);
        given().header("Authorization", "Bearer wrong").contentType("application/octet-stream").body(new byte[3])
                .when().put("/internal/file/recording/x/part/0").then().statusCode(401);
    }

    @Test
    void anAbandonedUploadIsSweptAndAnAbortedOneIsGone() {
        String abandoned = started(TestKeys.ORG_A, 1, 8000);
        part(TestKeys.ORG_A, audio(2, 0)).when().put("/internal/file/recording/" + abandoned + "/part/0")
                .then().statusCode(200);
        uploads.sweep(Instant.now().plusSeconds(1));
        runtime(TestKeys.ORG_A).when().post("/internal/file/recording/" + abandoned + "/complete").then().statusCode(404);

        String aborted = started(TestKeys.ORG_A, 1, 8000);
        runtime(TestKeys.ORG_A).when().delete("/internal/file/recording/" + aborted).then().statusCode(200);
        runtime(TestKeys.ORG_A).when().post("/internal/file/recording/" + aborted + "/complete").then().statusCode(404);
    }
}
