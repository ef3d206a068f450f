package dev.voiceplane.kit.sample;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.voiceplane.kit.persistence.OrgScopedEntity;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The list parameters, on a collection whose rows the test stamps with known times. */
@QuarkusTest
class ListParametersTest {

    private static final Instant T0 = Instant.parse("2024-03-01T10:00:00.000Z");

    @Inject
    NoteRepository notes;

    private String org;
    private String key;
    private final List<Note> stored = new ArrayList<>();

    @BeforeEach
    void seed() {
        // Org C owns the list fixtures alone, and they are rewritten for each test.
        org = TestKeys.ORG_C;
        key = TestKeys.KEY_C;
        stored.clear();
        QuarkusTransaction.requiringNew().run(() -> {
            notes.delete("orgId", org);
            for (int i = 0; i < 105; i++) {
                Note note = new Note();
                note.stampCreated(org, null);
                // Notes 0..104 are a minute apart; 50 and 51 share a createdAt to exercise the tie-break.
                note.createdAt = T0.plusSeconds(60L * (i == 51 ? 50 : i));
                note.updatedAt = note.createdAt.plusSeconds(i % 2 == 0 ? 3600 : 0);
                note.text = "note " + i;
                notes.persist(note);
                stored.add(note);
            }
        });
    }

    private RequestSpecification caller() {
        return given().header("Authorization", TestKeys.bearer(key));
    }

    private List<String> newestFirstIds() {
        return stored.stream()
                .sorted(Comparator.comparing((OrgScopedEntity n) -> n.createdAt).thenComparing(n -> n.id).reversed())
                .map(n -> n.id.toString())
                .toList();
    }

    @Test
    void defaultLimitIs100NewestFirstWithIdTieBreak() {
        List<String> ids = caller().when().get("/note").then().statusCode(200)
                .body("$", hasSize(100)).extract().jsonPath().getList("id");
        assertEquals(newestFirstIds().subList(0, 100), ids);
    }

    @Test
    void limitBoundsAreHonoured() {
        caller().queryParam("limit", 0).when().get("/note").then().statusCode(200).body("$", empty());
        caller().queryParam("limit", 3).when().get("/note").then().statusCode(200)
                .body("text", contains("note 104", "note 103", "note 102"));
        caller().queryParam("limit", 1000).when().get("/note").then().statusCode(200).body("$", hasSize(105));
    }

    @Test
    void invalidLimitsAre400() {
        caller().queryParam("limit", 1001).when().get("/note").then().statusCode(400)
                .body("message", contains("limit must not be greater than 1000"));
        caller().queryParam("limit", -1).when().get("/note").then().statusCode(400)
                .body("message", contains("limit must not be less than 0"));
        for (String bad : new String[] {"abc", "1.5", "", "99999999999"}) {
            caller().queryParam("limit", bad).when().get("/note").then().statusCode(400)
                    .body("statusCode", equalTo(400))
                    .body("message", contains("limit must be an integer number"));
        }
    }

    @Test
    void createdAtFiltersCompareStrictlyAndInclusively() {
        String at10 = "2024-03-01T10:10:00.000Z";
        caller().queryParam("createdAtGt", at10).queryParam("createdAtLe", "2024-03-01T10:12:00Z")
                .when().get("/note").then().statusCode(200).body("text", contains("note 12", "note 11"));
        caller().queryParam("createdAtGe", at10).queryParam("createdAtLt", "2024-03-01T10:12:00+00:00")
                .when().get("/note").then().statusCode(200).body("text", contains("note 11", "note 10"));
        caller().queryParam("createdAtLt", "2024-03-01T11:00:00+01:00")
                .when().get("/note").then().statusCode(200).body("$", empty());
        caller().queryParam("createdAtLt", "2024-03-01")
                .when().get("/note").then().statusCode(200).body("$", empty());
    }

    @Test
    void updatedAtFiltersUseTheUpdateTime() {
        // Even notes were updated an hour after creation: after 11:30 only even notes older than 30 minutes
        // qualify by update, plus every note created after 11:30.
        List<String> texts = caller().queryParam("updatedAtGe", "2024-03-01T11:30:00Z").queryParam("limit", 1000)
                .when().get("/note").then().statusCode(200).extract().jsonPath().getList("text");
        long expected = stored.stream().filter(n -> !n.updatedAt.isBefore(Instant.parse("2024-03-01T11:30:00Z"))).count();
        assertEquals(expected, texts.size());
        caller().queryParam("updatedAtLe", "2024-03-01T10:01:00Z").queryParam("updatedAtGt", "2024-03-01T09:00:00Z")
                .when().get("/note").then().statusCode(200).body("text", contains("note 1"));
        caller().queryParam("updatedAtLt", "2024-03-01T10:01:00Z")
                .when().get("/note").then().statusCode(200).body("$", empty());
    }

    @Test
    void equalityFiltersAreAppliedWhenTheEndpointAllowsThem() {
        caller().queryParam("text", "note 7").when().get("/note").then().statusCode(200)
                .body("text", contains("note 7"));
    }

    @Test
    void invalidDatesAndUnknownParametersAre400() {
        caller().queryParam("createdAtGt", "yesterday").queryParam("updatedAtLe", "2024-13-01")
                .when().get("/note").then().statusCode(400)
                .body("message", containsInAnyOrder("createdAtGt must be a valid ISO 8601 date string",
                        "updatedAtLe must be a valid ISO 8601 date string"));
        for (String outOfRange : new String[] {"+999999999-12-31T23:59:59Z", "-300000-01-01T00:00:00Z", "0000-12-31"}) {
            caller().queryParam("createdAtGt", outOfRange).when().get("/note").then().statusCode(400)
                    .body("message", contains("createdAtGt must be a valid ISO 8601 date string"));
        }
        caller().queryParam("createdAtEq", "2024-03-01").queryParam("page", 2)
                .when().get("/note").then().statusCode(400)
                .body("message", containsInAnyOrder("property createdAtEq should not exist",
                        "property page should not exist"));
    }

    @Test
    void listsNeverShowAnotherOrganisationsRows() {
        String bNote = AuthenticationTest.createNote(TestKeys.KEY_B, "org b's own");
        caller().queryParam("limit", 1000).when().get("/note").then().statusCode(200)
                .body("id", not(hasItem(bNote)));
        given().header("Authorization", TestKeys.bearer(TestKeys.KEY_B)).queryParam("limit", 1000)
                .when().get("/note").then().statusCode(200)
                .body("orgId", everyItem(equalTo(TestKeys.ORG_B)));
        caller().queryParam("limit", 1000).when().get("/note").then().statusCode(200)
                .body("orgId", everyItem(equalTo(org)));
    }

    @Test
    void timestampsAreIso8601UtcWithMilliseconds() {
        caller().queryParam("limit", 1).queryParam("createdAtLe", "2024-03-01T10:00:00Z")
                .when().get("/note").then().statusCode(200)
                .body("[0].createdAt", equalTo("2024-03-01T10:00:00.000Z"))
                .body("[0].updatedAt", equalTo("2024-03-01T11:00:00.000Z"))
                .body("[0].id", equalTo(stored.getFirst().id.toString()));
    }

    @Test
    void unsetFieldsAreOmitted() {
        caller().queryParam("limit", 1).when().get("/note").then().statusCode(200)
                .body("[0]", not(hasKey("priority")))
                .body("[0]", hasKey("text"));
    }
}
