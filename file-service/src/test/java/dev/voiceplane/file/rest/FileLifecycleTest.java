package dev.voiceplane.file.rest;

import static dev.voiceplane.file.Uploads.uploaded;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.file.TestDocuments;
import dev.voiceplane.kit.testing.Race;
import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** List, get, rename and delete: a deleted file's bytes and text are gone with it. */
@QuarkusTest
class FileLifecycleTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void listIsABareArrayNewestFirstWithTheListParameters() {
        // Org C is used by this test alone, so its list holds exactly what it uploaded.
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            created.add(TestClients.as(TestKeys.KEY_C).contentType("multipart/form-data")
                    .multiPart("file", "f" + i + ".txt", TestDocuments.utf8("file " + i))
                    .when().post("/file").then().statusCode(201).extract().path("id"));
        }
        List<String> listed = TestClients.orgC().when().get("/file").then().statusCode(200)
                .extract().jsonPath().getList("id");
        assertEquals(List.of(created.get(2), created.get(1), created.get(0)), listed);
        TestClients.orgC().queryParam("limit", 1).when().get("/file").then().statusCode(200)
                .body("id", contains(created.get(2)));
        String middle = TestClients.orgC().when().get("/file/" + created.get(1)).then().extract().path("createdAt");
        TestClients.orgC().queryParam("createdAtLt", middle).when().get("/file").then().statusCode(200)
                .body("id", contains(created.get(0)));
        TestClients.orgC().queryParam("limit", 0).when().get("/file").then().statusCode(200).body("$", org.hamcrest.Matchers.empty());
        TestClients.orgC().queryParam("limit", 5000).when().get("/file").then().statusCode(400)
                .body("message", contains("limit must not be greater than 1000"));
        TestClients.orgC().queryParam("colour", "red").when().get("/file").then().statusCode(400)
                .body("message", contains("property colour should not exist"));
    }

    @Test
    void patchRenamesWithinFortyCharacters() {
        String id = uploaded("draft.txt", TestDocuments.utf8("draft"));
        JsonPath before = orgA().when().get("/file/" + id).then().extract().jsonPath();
        orgA().body("{\"name\":\"Final price list\"}").when().patch("/file/" + id).then().statusCode(200)
                .body("name", equalTo("Final price list"))
                .body("originalName", equalTo("draft.txt"));
        JsonPath after = orgA().when().get("/file/" + id).then().statusCode(200)
                .body("name", equalTo("Final price list")).extract().jsonPath();
        assertEquals(before.getString("createdAt"), after.getString("createdAt"));
        assertTrue(Instant.parse(after.getString("updatedAt")).isAfter(Instant.parse(before.getString("updatedAt"))));

        orgA().body("{\"name\":\"" + "n".repeat(41) + "\"}").when().patch("/file/" + id).then().statusCode(400)
                .body("message", contains("name must be shorter than or equal to 40 characters"));
        orgA().body("{\"name\":\"ok\",\"bytes\":1}").when().patch("/file/" + id).then().statusCode(400)
                .body("message", contains("property bytes should not exist"));
        orgA().body("{\"name\":\"\"}").when().patch("/file/" + id).then().statusCode(400);
        orgA().body("{\"name\":42}").when().patch("/file/" + id).then().statusCode(400);
        orgA().when().patch("/file/" + id).then().statusCode(400);
        orgA().body("{\"name\":\"x\"}").when().patch("/file/" + TestClients.newId()).then().statusCode(404);
        orgA().when().get("/file/" + id).then().body("name", equalTo("Final price list"));
    }

    @Test
    void deleteAnswersTheFileThenItsBytesAndTextAreGone() throws Exception {
        String id = uploaded("gone.txt", TestDocuments.utf8("Soon forgotten."));
        String key = orgA().when().get("/file/" + id).then().extract().path("key");
        assertEquals(1, TestDatabase.count(dataSource, "select count(*) from file.file_texts where id = ?::uuid", id));
        assertTrue(TestDatabase.count(dataSource, "select count(*) from file.blob_chunks where storage_key = ?", key) > 0);

        orgA().when().delete("/file/" + id).then().statusCode(200)
                .body("id", equalTo(id)).body("object", equalTo("file")).body("name", equalTo("gone.txt"));

        orgA().when().get("/file/" + id).then().statusCode(404).body("message", equalTo("File not found"));
        orgA().when().get("/file/" + id + "/content").then().statusCode(404);
        internal(TestKeys.ORG_A).when().get("/internal/file/" + id + "/text").then().statusCode(404);
        orgA().queryParam("limit", 1000).when().get("/file").then().body("id", not(hasItem(id)));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from file.file_texts where id = ?::uuid", id));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from file.blob_chunks where storage_key = ?", key));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from file.blob_cleanup where storage_key = ?", key));
        orgA().when().delete("/file/" + id).then().statusCode(404);
    }

    @Test
    void concurrentDeletesGiveOne200AndOtherwise404() throws Exception {
        for (int round = 0; round < 5; round++) {
            String id = uploaded("race.txt", TestDocuments.utf8("race"));
            List<Integer> statuses = Race.statuses(4, () -> orgA().when().delete("/file/" + id).then().extract().statusCode());
            assertEquals(1, statuses.stream().filter(status -> status == 200).count(), statuses.toString());
            assertEquals(3, statuses.stream().filter(status -> status == 404).count(), statuses.toString());
        }
    }

    @Test
    void withoutAKeyNothingIsServed() {
        given().when().get("/file").then().statusCode(401).body("statusCode", equalTo(401));
        given().multiPart("file", "x.txt", TestDocuments.utf8("x")).when().post("/file").then().statusCode(401);
        String id = uploaded("mine.txt", TestDocuments.utf8("mine"));
        given().when().get("/file/" + id + "/content").then().statusCode(401);
    }

    @Test
    void unknownOrMalformedIdsAreNotFound() {
        orgA().when().get("/file/" + TestClients.newId()).then().statusCode(404).body("error", equalTo("Not Found"));
        orgA().when().get("/file/not-a-uuid").then().statusCode(404);
        orgA().when().delete("/file/not-a-uuid").then().statusCode(404);
        orgA().when().get("/file/" + TestClients.newId() + "/content").then().statusCode(404);
    }
}
