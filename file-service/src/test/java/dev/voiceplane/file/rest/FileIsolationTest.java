package dev.voiceplane.file.rest;

import static dev.voiceplane.file.Uploads.uploaded;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.kit.testing.TestClients.orgB;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import dev.voiceplane.file.TestDocuments;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Two organisations never see, read, rename or delete each other's files, on public or internal routes. */
@QuarkusTest
class FileIsolationTest {

    @Test
    void anotherOrganisationCannotSeeOrTouchAFile() {
        String id = uploaded("a-only.txt", TestDocuments.utf8("Org A's secret recipe."));

        orgB().when().get("/file/" + id).then().statusCode(404).body("message", equalTo("File not found"));
        orgB().when().get("/file/" + id + "/content").then().statusCode(404);
        orgB().body("{\"name\":\"mine now\"}").when().patch("/file/" + id).then().statusCode(404);
        orgB().when().delete("/file/" + id).then().statusCode(404);
        orgB().queryParam("limit", 1000).when().get("/file").then().statusCode(200)
                .body("id", not(hasItem(id)))
                .body("orgId", everyItem(equalTo(TestKeys.ORG_B)));
        internal(TestKeys.ORG_B).when().get("/internal/file/" + id + "/text").then().statusCode(404);
        internal(TestKeys.ORG_B).body("{\"ids\":[\"" + id + "\"]}").when().post("/internal/file/lookup")
                .then().statusCode(200).body("found", empty());

        orgA().when().get("/file/" + id).then().statusCode(200).body("name", equalTo("a-only.txt"));
        orgA().when().get("/file/" + id + "/content").then().statusCode(200);
    }
}
