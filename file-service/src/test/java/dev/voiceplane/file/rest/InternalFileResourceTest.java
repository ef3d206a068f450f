package dev.voiceplane.file.rest;

import static dev.voiceplane.file.Uploads.uploaded;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceplane.file.TestDocuments;
import dev.voiceplane.kit.testing.TestKeys;
import java.util.ArrayList;
import java.util.List;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** The lookup contract assistant-service calls (docs/assistants-and-squads.md) and the text route. */
@QuarkusTest
class InternalFileResourceTest {

    @Test
    void lookupAnswersTheAskedIdsThatAreFilesInTheOrderAskedEachOnce() {
        String first = uploaded("one.txt", TestDocuments.utf8("one"));
        String second = uploaded("two.txt", TestDocuments.utf8("two"));
        String unknown = newId();
        internal(TestKeys.ORG_A)
                .body("{\"ids\":[\"" + second + "\",\"" + unknown + "\",\"not-a-uuid\",\"" + first + "\",\"" + second + "\"]}")
                .when().post("/internal/file/lookup").then().statusCode(200)
                .body("found", contains(second, first));
        internal(TestKeys.ORG_A).body("{\"ids\":[]}").when().post("/internal/file/lookup")
                .then().statusCode(200).body("found", empty());
    }

    @Test
    void lookupTakesAThousandIdsAndRefusesMore() {
        String file = uploaded("many.txt", TestDocuments.utf8("many"));
        List<String> ids = new ArrayList<>();
        ids.add(file);
        while (ids.size() < 1000) {
            ids.add(newId());
        }
        internal(TestKeys.ORG_A).body(java.util.Map.of("ids", ids)).when().post("/internal/file/lookup")
                .then().statusCode(200).body("found", contains(file));
        ids.add(newId());
        internal(TestKeys.ORG_A).body(java.util.Map.of("ids", ids)).when().post("/internal/file/lookup")
                .then().statusCode(400).body("message", contains("ids must contain no more than 1000 elements"));
    }

    @Test
    void lookupRefusesABadBody() {
        internal(TestKeys.ORG_A).body("{}").when().post("/internal/file/lookup").then().statusCode(400);
        internal(TestKeys.ORG_A).body("{\"ids\":[\"a\"],\"extra\":1}").when().post("/internal/file/lookup")
                .then().statusCode(400).body("message", contains("property extra should not exist"));
        internal(TestKeys.ORG_A).body("{\"ids\":\"a\"}").when().post("/internal/file/lookup").then().statusCode(400);
    }

    @Test
    void internalRoutesTakeTheServiceTokenOnly() {
        orgA().body("{\"ids\":[]}").when().post("/internal/file/lookup").then().statusCode(401);
        given().header("Authorization", "Bearer wrong").header("X-Voice-Org-Id", TestKeys.ORG_A)
                .contentType("application/json").body("{\"ids\":[]}")
                .when().post("/internal/file/lookup").then().statusCode(401);
        given().header("Authorization", TestKeys.bearer(TestKeys.INTERNAL_TOKEN)).contentType("application/json")
                .body("{\"ids\":[]}").when().post("/internal/file/lookup").then().statusCode(400);
    }

    @Test
    void textOfAnIndexedFile() {
        String id = uploaded("kb.md", TestDocuments.utf8("# Returns\nBring the receipt."));
        internal(TestKeys.ORG_A).when().get("/internal/file/" + id + "/text").then().statusCode(200)
                .body("id", equalTo(id))
                .body("status", equalTo("indexed"))
                .body("mimetype", equalTo("text/markdown"))
                .body("text", equalTo("# Returns\nBring the receipt."));
        internal(TestKeys.ORG_A).when().get("/internal/file/" + newId() + "/text").then().statusCode(404);
    }
}
