package dev.voiceplane.file.rest;

import static dev.voiceplane.file.Uploads.uploaded;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.voiceplane.file.TestDocuments;
import dev.voiceplane.file.Uploads;
import dev.voiceplane.file.service.PassageBackfill;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /internal/file/search}, the knowledge-base search the voice runtime asks per caller turn: the passage
 * that answers the caller's words first, only the asked files of the asking organisation, a clear 400 for a bad
 * body, and the texts stored before the search existed cut by the backfill.
 */
@QuarkusTest
class InternalSearchResourceTest {

    private static final String HOURS = "Opening hours\n\nThe Harbour Cafe opens at nine in the morning on weekdays and"
            + " at ten on Saturdays and Sundays. The kitchen closes at eight in the evening.";
    private static final String MENU = "Menu\n\nWe serve soups, salads and grilled fish. Every dish is under ten"
            + " pounds. Vegetarian and vegan dishes are marked on the menu.";
    private static final String PARKING = "Parking\n\nThere is free parking behind the building for customers.";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    PassageBackfill backfill;

    private static ValidatableResponse search(String orgId, List<String> fileIds, String query, int topK) {
        return internal(orgId).body(Map.of("fileIds", fileIds, "query", query, "topK", topK))
                .when().post("/internal/file/search").then();
    }

    @Test
    void theBestPassageForTheCallersWordsComesFirst() {
        String hours = uploaded("hours.md", TestDocuments.utf8(HOURS));
        String menu = uploaded("menu.txt", TestDocuments.utf8(MENU));
        String parking = uploaded("parking.txt", TestDocuments.utf8(PARKING));
        List<String> all = List.of(hours, menu, parking);

        search(TestKeys.ORG_A, all, "What time do you open on Saturday?", 3).statusCode(200)
                .body("passages[0].fileId", equalTo(hours))
                .body("passages[0].text", containsString("opens at nine in the morning"))
                .body("passages", hasSize(1));
        // Stemmed and any word: "dishes" matches "dish", "cost" matches nothing, the passage still wins.
        search(TestKeys.ORG_A, all, "How much does a fish dish cost?", 3).statusCode(200)
                .body("passages[0].fileId", equalTo(menu))
                .body("passages.fileId", contains(menu));
        // The passage with more of the words ranks above the one with fewer; topK bounds the answer.
        search(TestKeys.ORG_A, all, "Is there parking for customers at the cafe in the morning?", 1).statusCode(200)
                .body("passages", hasSize(1))
                .body("passages[0].fileId", equalTo(parking));
        search(TestKeys.ORG_A, all, "parking cafe", 3).statusCode(200)
                .body("passages.fileId", contains(parking, hours));
        // Words that say nothing (stop words only), or nothing at all: no passage, no error.
        search(TestKeys.ORG_A, all, "is it the", 3).statusCode(200).body("passages", empty());
        search(TestKeys.ORG_A, all, "   ", 3).statusCode(200).body("passages", empty());
        search(TestKeys.ORG_A, all, "quantum chromodynamics", 3).statusCode(200).body("passages", empty());
    }

    @Test
    void onlyTheAskedFilesOfTheAskingOrganisationAreSearched() {
        String ours = uploaded("hours.txt", TestDocuments.utf8(HOURS));
        String other = Uploads.orgB().multiPart("file", "hours.txt", TestDocuments.utf8(HOURS.replace("Harbour",
                "Lighthouse"))).when().post("/file").then().statusCode(201).extract().path("id");
        String unasked = uploaded("menu.txt", TestDocuments.utf8(MENU));

        search(TestKeys.ORG_A, List.of(ours, other), "when does the cafe open", 5).statusCode(200)
                .body("passages.fileId", contains(ours));
        search(TestKeys.ORG_B, List.of(ours, other), "when does the cafe open", 5).statusCode(200)
                .body("passages.fileId", contains(other))
                .body("passages[0].text", containsString("Lighthouse"));
        search(TestKeys.ORG_A, List.of(ours), "grilled fish menu", 5).statusCode(200).body("passages", empty());
        search(TestKeys.ORG_A, List.of(unasked, newId(), "not-a-uuid"), "grilled fish", 5).statusCode(200)
                .body("passages.fileId", contains(unasked));
        search(TestKeys.ORG_A, List.of(), "grilled fish", 5).statusCode(200).body("passages", empty());
    }

    @Test
    void aDeletedFileIsNotFound() throws Exception {
        String id = uploaded("hours.txt", TestDocuments.utf8(HOURS));
        search(TestKeys.ORG_A, List.of(id), "open saturday", 3).statusCode(200).body("passages", hasSize(1));
        orgA().when().delete("/file/" + id).then().statusCode(200);
        search(TestKeys.ORG_A, List.of(id), "open saturday", 3).statusCode(200).body("passages", empty());
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from file.file_passages where file_id = ?::uuid",
                id), "the passages went with the file");
    }

    @Test
    void aLongTextIsCutIntoPassagesAndTheRightOneIsFound() throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            text.append("Paragraph ").append(i).append(" talks about the weather and the sea and the boats.\n\n");
        }
        text.append("The lost property office is next to the ticket desk.\n\n");
        for (int i = 0; i < 200; i++) {
            text.append("More about tides and harbours, number ").append(i).append(".\n\n");
        }
        String id = uploaded("long.txt", TestDocuments.utf8(text.toString()));
        search(TestKeys.ORG_A, List.of(id), "Where can I find lost property?", 2).statusCode(200)
                .body("passages[0].text", containsString("lost property office"))
                .body("passages", hasSize(1));
        assertTrue(TestDatabase.count(dataSource, "select count(*) from file.file_passages where file_id = ?::uuid",
                id) > 10, "cut into many passages");
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from file.file_passages where file_id = ?::uuid"
                + " and length(text) > 700", id), "none longer than the limit");
    }

    @Test
    void badBodiesAreA400() {
        String id = newId();
        internal(TestKeys.ORG_A).body("{}").when().post("/internal/file/search").then().statusCode(400)
                .body("statusCode", equalTo(400));
        internal(TestKeys.ORG_A).when().post("/internal/file/search").then().statusCode(400);
        internal(TestKeys.ORG_A).body("{\"fileIds\":[\"" + id + "\"],\"query\":\"x\",\"topK\":0}")
                .when().post("/internal/file/search").then().statusCode(400)
                .body("message", hasItem(containsString("topK")));
        internal(TestKeys.ORG_A).body("{\"fileIds\":[\"" + id + "\"],\"query\":\"x\",\"topK\":11}")
                .when().post("/internal/file/search").then().statusCode(400);
        internal(TestKeys.ORG_A).body("{\"fileIds\":[\"" + id + "\"],\"query\":\"x\"}")
                .when().post("/internal/file/search").then().statusCode(400);
        internal(TestKeys.ORG_A).body("{\"fileIds\":\"" + id + "\",\"query\":\"x\",\"topK\":3}")
                .when().post("/internal/file/search").then().statusCode(400);
        internal(TestKeys.ORG_A).body("{\"fileIds\":[null],\"query\":\"x\",\"topK\":3}")
                .when().post("/internal/file/search").then().statusCode(400);
        internal(TestKeys.ORG_A).body(Map.of("fileIds", List.of(id), "query", "x".repeat(4001), "topK", 3))
                .when().post("/internal/file/search").then().statusCode(400)
                .body("message", hasItem(containsString("query")));
        internal(TestKeys.ORG_A).body("{\"fileIds\":[],\"query\":\"x\",\"topK\":3,\"extra\":1}")
                .when().post("/internal/file/search").then().statusCode(400)
                .body("message", contains("property extra should not exist"));
        orgA().body("{\"fileIds\":[],\"query\":\"x\",\"topK\":3}").when().post("/internal/file/search")
                .then().statusCode(401);
        // Odd words are words: quotes and the operators of tsquery syntax are searched as text.
        for (String query : List.of("o'brien & | ! <-> :* (", "'';--", "open:* & !close", "\\")) {
            search(TestKeys.ORG_A, List.of(id), query, 3).statusCode(200).body("passages", empty());
        }
        // What text cannot hold is refused for every JSON body (the kit's screen): U+0000, a lone surrogate.
        for (String query : List.of("\\u0000open", "\\ud800 open")) {
            internal(TestKeys.ORG_A).body("{\"fileIds\":[\"" + id + "\"],\"query\":\"" + query + "\",\"topK\":3}")
                    .when().post("/internal/file/search").then().statusCode(400).body("statusCode", equalTo(400));
        }
    }

    @Test
    void textsStoredBeforeTheSearchExistedAreCutByTheBackfill() throws Exception {
        String id = uploaded("hours.txt", TestDocuments.utf8(HOURS));
        // What a file indexed before migration V3 looks like: its text, no passages, not cut.
        try (Connection connection = dataSource.getConnection();
                PreparedStatement forget = connection.prepareStatement(
                        "delete from file.file_passages where file_id = ?::uuid");
                PreparedStatement uncut = connection.prepareStatement(
                        "update file.file_texts set passages_cut = false where id = ?::uuid")) {
            forget.setString(1, id);
            forget.executeUpdate();
            uncut.setString(1, id);
            uncut.executeUpdate();
        }
        search(TestKeys.ORG_A, List.of(id), "open saturday", 3).statusCode(200).body("passages", empty());
        assertTrue(backfill.run() >= 1);
        search(TestKeys.ORG_A, List.of(id), "open saturday", 3).statusCode(200)
                .body("passages[0].fileId", equalTo(id));
        assertEquals(0, backfill.run(), "nothing is cut twice");
    }
}
