package dev.voiceplane.file.rest;

import dev.voiceplane.kit.testing.fuzz.Endpoint;
import dev.voiceplane.kit.testing.fuzz.FuzzSuite;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * Every public endpoint of file-service under the kit's fuzz suite (service-kit/README.md). The upload routes get
 * JSON and hostile bodies (a body that is not multipart, bad headers, bad types) and multipart forms, well-formed and
 * hostile (a part nested in the file part, odd file-name encodings, raw control characters): what is accepted must
 * read back with its bytes exactly. The PATCH body is the one public JSON body it takes; the internal lookup and the
 * knowledge-base search take theirs.
 */
@QuarkusTest
class FileFuzzTest {

    @Test
    void noInputAnswers5xxOrLeavesTheErrorShape() {
        FuzzSuite.of("file-service")
                .endpoint(Endpoint.post("/file/upload", "{\"file\":\"not multipart\"}"))
                .endpoint(Endpoint.post("/file", "{\"file\":\"not multipart\"}"))
                .endpoint(Endpoint.upload("/file/upload"))
                .endpoint(Endpoint.upload("/file"))
                .readsBack("/file/upload", "/file")
                .endpoint(Endpoint.list("/file"))
                .endpoint(Endpoint.get("/file/{id}"))
                .endpoint(Endpoint.get("/file/{id}/content"))
                .endpoint(Endpoint.patch("/file/{id}", "{\"name\":\"renamed\"}"))
                .endpoint(Endpoint.delete("/file/{id}"))
                .endpoint(Endpoint.post("/internal/file/lookup", "{\"ids\":[\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\"]}"))
                .endpoint(Endpoint.get("/internal/file/{id}/text"))
                .endpoint(Endpoint.post("/internal/file/recording", "{\"name\":\"call.wav\",\"channels\":2,\"sampleRate\":8000}"))
                .endpoint(Endpoint.put("/internal/file/recording/{id}/part/0", "{}"))
                .endpoint(Endpoint.post("/internal/file/recording/{id}/complete"))
                .endpoint(Endpoint.delete("/internal/file/recording/{id}"))
                .endpoint(Endpoint.post("/internal/file/search", "{\"fileIds\":[\"0190b2c4-8f3e-7a1b-9c2d-3e4f5a6b7c8d\"],"
                        + "\"query\":\"when do you open\",\"topK\":3}"))
                .cases(1500)
                .run();
    }
}
