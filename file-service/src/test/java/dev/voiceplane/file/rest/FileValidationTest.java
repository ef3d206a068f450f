package dev.voiceplane.file.rest;

import static dev.voiceplane.file.Uploads.upload;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.voiceplane.file.TestDocuments;
import dev.voiceplane.file.Uploads;
import dev.voiceplane.kit.testing.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every bad upload is a 4xx in the error shape and stores nothing: no row, no bytes, no text. The test profile
 * limits files to 1 MiB ({@code %test.voice.file.max-size}).
 */
@QuarkusTest
class FileValidationTest {

    private static final long MAX = 1024 * 1024;

    @Inject
    AgroalDataSource dataSource;

    private long[] before;

    private long[] stored() throws SQLException {
        return new long[] {
            TestDatabase.count(dataSource, "select count(*) from file.files"),
            TestDatabase.count(dataSource, "select count(*) from file.blob_chunks"),
            TestDatabase.count(dataSource, "select count(*) from file.file_texts"),
            TestDatabase.count(dataSource, "select count(*) from file.blob_cleanup")};
    }

    @BeforeEach
    void remember() throws SQLException {
        before = stored();
    }

    @AfterEach
    void nothingWasStored() throws SQLException {
        long[] after = stored();
        for (int i = 0; i < after.length; i++) {
            assertEquals(before[i], after[i], "table " + i + " changed");
        }
    }

    @Test
    void withoutAFilePart() {
        Uploads.orgA().multiPart("other", "x.txt", TestDocuments.utf8("x")).when().post("/file")
                .then().statusCode(400).body("message", contains("property other should not exist"));
        Uploads.orgA().multiPart("name", "just a field").when().post("/file")
                .then().statusCode(400).body("statusCode", equalTo(400))
                .body("message[0]", startsWith("Invalid file: send the file as the multipart part named \"file\""));
        // A part named file but sent as a plain field, without a file name, is not a file either.
        Uploads.orgA().multiPart("file", "text, not a file").when().post("/file/upload")
                .then().statusCode(400).body("message[0]", startsWith("Invalid file"));
    }

    @Test
    void anEmptyFile() {
        upload("empty.txt", new byte[0]).statusCode(400).body("message", contains("Invalid file: the file is empty"))
                .body("error", equalTo("Bad Request"));
    }

    @Test
    void twoFileParts() {
        Uploads.orgA().multiPart("file", "a.txt", TestDocuments.utf8("a")).multiPart("file", "b.txt", TestDocuments.utf8("b"))
                .when().post("/file").then().statusCode(400)
                .body("message", contains("Invalid file: send exactly one part named \"file\" (got 2)"));
    }

    @Test
    void aBodyThatIsNotMultipart() {
        orgA().body("{\"file\":\"aGVsbG8=\"}").when().post("/file").then().statusCode(415)
                .body("statusCode", equalTo(415)).body("error", equalTo("Unsupported Media Type"));
        orgA().contentType("text/plain").body("hello").when().post("/file/upload").then().statusCode(415);
        orgA().contentType("multipart/form-data; boundary=xyz").body("this is not multipart".getBytes(java.nio.charset.StandardCharsets.UTF_8)).when().post("/file")
                .then().statusCode(400).body("message", startsWith("request body is not valid multipart/form-data"));
    }

    @Test
    void typesThatAreNeitherTextNorADocument() {
        upload("pixel.png", TestDocuments.png()).statusCode(400)
                .body("message[0]", startsWith("Invalid file: type image/png is not supported"));
        // Bytes that are not text stay unsupported whatever the name claims.
        upload("data.txt", TestDocuments.binary(4096)).statusCode(400)
                .body("message[0]", startsWith("Invalid file: the content is neither text nor a supported document"));
        upload("archive.zip", zip()).statusCode(400).body("message[0]", startsWith("Invalid file: type application/zip"));
    }

    @Test
    void aFileOverTheLimitIs413() {
        // Within the request envelope, so it is parsed; the file itself is one byte over.
        byte[] tooLarge = TestDocuments.utf8("a".repeat((int) MAX + 1));
        upload("big.txt", tooLarge).statusCode(413)
                .body("message", equalTo("file is too large (at most " + MAX + " bytes)"))
                .body("error", equalTo("Payload Too Large"));
        // Exactly at the limit is fine (and stored: undone below by deleting it).
        String id = Uploads.uploaded("max.txt", TestDocuments.utf8("b".repeat((int) MAX)));
        orgA().when().delete("/file/" + id).then().statusCode(200);
    }

    @Test
    void aDeclaredLengthOverTheLimitIsRefusedBeforeTheBodyIsRead() {
        byte[] far = TestDocuments.utf8("c".repeat((int) MAX + 200 * 1024));
        upload("far.txt", far).statusCode(413).body("message", equalTo("file is too large (at most " + MAX + " bytes)"));
    }

    @Test
    void jsonBodiesKeepTheOneMegabyteLimit() {
        String big = "{\"name\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}";
        orgA().body(big).when().patch("/file/" + dev.voiceplane.kit.testing.TestClients.newId()).then().statusCode(413)
                .body("message", startsWith("request body is too large"));
    }

    private static byte[] zip() {
        try (java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(out)) {
            zip.putNextEntry(new java.util.zip.ZipEntry("a.bin"));
            zip.write(TestDocuments.binary(100));
            zip.closeEntry();
            zip.finish();
            return out.toByteArray();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
