package dev.voiceplane.file.rest;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.file.Uploads;
import dev.voiceplane.kit.testing.RawHttp;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Multipart bodies that reached a 500 (issue 24, item 3): each is refused with a 400 that says what is wrong, in the
 * error shape. Sent over a raw socket, byte for byte, since a multipart library would not write them.
 */
@QuarkusTest
class HostileUploadTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BOUNDARY = "hostile-boundary";

    /** The request with org A's key, as {@code multipart/form-data} with {@code body}. */
    private static RawHttp.Answer post(String path, byte[] body) {
        return RawHttp.send("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                + "Authorization: Bearer " + TestKeys.KEY_A + "\r\n"
                + "Content-Type: multipart/form-data; boundary=" + BOUNDARY + "\r\n"
                + "Content-Length: " + body.length, body);
    }

    /** One part: its header lines (each without its line end) and its content. */
    private static byte[] form(String partHeaders, byte[] content) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(("--" + BOUNDARY + "\r\n" + partHeaders + "\r\n\r\n").getBytes(ISO_8859_1));
        body.writeBytes(content);
        body.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(ISO_8859_1));
        return body.toByteArray();
    }

    private static JsonNode error(RawHttp.Answer answer, int status) {
        assertEquals(status, answer.status(), answer.body());
        assertThat(answer.header("Content-Type"), containsString("application/json"));
        try {
            JsonNode error = JSON.readTree(answer.body());
            assertEquals(status, error.path("statusCode").asInt(), answer.body());
            assertEquals(3, error.size(), answer.body());
            return error;
        } catch (java.io.IOException e) {
            throw new AssertionError(answer.body(), e);
        }
    }

    /** With a file name, the part is a file like any other: its bytes (the nested body) are stored as they came. */
    @ParameterizedTest
    @ValueSource(strings = {"/file/upload", "/file"})
    void aMultipartPartNestedInANamedFilePartIsStoredAsItsBytes(String path) {
        byte[] nested = ("--inner\r\nContent-Disposition: file; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\n"
                + "hello\r\n--inner--").getBytes(ISO_8859_1);
        RawHttp.Answer answer = post(path, form("Content-Disposition: form-data; name=\"file\"; filename=\"outer.txt\"\r\n"
                + "Content-Type: multipart/mixed; boundary=inner", nested));
        readsBack(answer, "outer.txt", nested);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/file/upload", "/file"})
    void aMultipartPartNestedWithoutAFileNameIsA400(String path) {
        String nested = "--inner\r\nContent-Disposition: file; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\n"
                + "hello\r\n--inner--";
        RawHttp.Answer answer = post(path, form("Content-Disposition: form-data; name=\"file\"\r\n"
                + "Content-Type: multipart/mixed; boundary=inner", nested.getBytes(ISO_8859_1)));
        assertThat(error(answer, 400).path("message").toString(), containsString("multipart/mixed"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/file/upload", "/file"})
    void aFileNameWithMalformedPercentEscapesIsA400(String path) {
        RawHttp.Answer answer = post(path, form("Content-Disposition: form-data; name=\"file\"; "
                + "filename*=UTF-8''%FF%ZZ.txt\r\nContent-Type: text/plain", "hello".getBytes(UTF_8)));
        assertThat(error(answer, 400).path("message").toString(), containsString("file name"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"filename*=''x.txt", "filename*=no-such-charset''x.txt", "filename*=UTF-8''%", "filename*=UTF-8''%E2%8"})
    void aFileNameThatCannotBeDecodedIsA400(String fileName) {
        RawHttp.Answer answer = post("/file", form("Content-Disposition: form-data; name=\"file\"; " + fileName
                + "\r\nContent-Type: text/plain", "hello".getBytes(UTF_8)));
        assertThat(error(answer, 400).path("message").toString(), containsString("file name"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/file/upload", "/file"})
    void aFileNameWithARawLineFeedIsA400(String path) {
        RawHttp.Answer answer = post(path, form("Content-Disposition: form-data; name=\"file\"; filename=\"a\nb.txt\"\r\n"
                + "Content-Type: text/plain", "hello".getBytes(UTF_8)));
        assertThat(error(answer, 400).path("message").toString(), containsString("multipart"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/file/upload", "/file"})
    void aWellFormedExtendedFileNameReadsBackIdentical(String path) {
        byte[] content = "Prices: ten euros.\n".getBytes(UTF_8);
        RawHttp.Answer answer = post(path, form("Content-Disposition: form-data; name=\"file\"; "
                + "filename*=UTF-8''pri%C3%A8re%20%E2%82%AC.txt\r\nContent-Type: text/plain", content));
        readsBack(answer, "prière €.txt", content);
    }

    /** Issue 24, item 6: an upload without a key answered 415 (or 400, 413) before it was authenticated. */
    @ParameterizedTest
    @ValueSource(strings = {"multipart/form-data; boundary=" + BOUNDARY, "application/json", "garbage", "text/plain"})
    void anUploadWithoutAKeyIs401WhateverElseIsWrong(String contentType) {
        byte[] body = form("Content-Disposition: form-data; name=\"file\"; filename*=UTF-8''%FF%ZZ.txt",
                "hello".getBytes(UTF_8));
        for (String path : new String[] {"/file/upload", "/file", "/file/upload?x=%zz"}) {
            // A declared length far over the limit is refused before the body is read (it is drained a moment).
            for (String length : path.equals("/file") ? new String[] {String.valueOf(body.length), "999999999"}
                    : new String[] {String.valueOf(body.length)}) {
                RawHttp.Answer answer = RawHttp.send("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                        + "Content-Type: " + contentType + "\r\nContent-Length: " + length, body);
                assertThat(error(answer, 401).path("message").asText(), containsString("Invalid Key"));
            }
        }
    }

    /** Created (201), and the file's name and bytes read back exactly as sent. */
    private static void readsBack(RawHttp.Answer answer, String name, byte[] content) {
        assertEquals(201, answer.status(), answer.body());
        String id;
        try {
            JsonNode file = JSON.readTree(answer.body());
            assertEquals(name, file.path("originalName").asText(), answer.body());
            id = file.path("id").asText();
        } catch (java.io.IOException e) {
            throw new AssertionError(answer.body(), e);
        }
        Uploads.orgA().when().get("/file/" + id).then().statusCode(200).body("originalName", equalTo(name));
        byte[] back = Uploads.orgA().when().get("/file/" + id + "/content").then().statusCode(200).extract().asByteArray();
        assertArrayEquals(content, back);
    }
}
