package dev.voiceplane.assistant.rest;

import static dev.voiceplane.kit.testing.TestClients.orgC;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GET /assistant and GET /squad take the list parameters of docs/api-reference.md, "Lists". Organisation C is used by
 * list tests only; each test scopes its checks to what it created itself ({@code createdAtGe} its first row's
 * createdAt).
 */
@QuarkusTest
class ListBehaviourTest {

    @ParameterizedTest
    @ValueSource(strings = {"/assistant", "/squad"})
    void newestFirstWithADefaultLimitOf100(String collection) {
        List<String> created = create(collection, 101);
        String since = createdAt(collection, created.getFirst());
        List<String> page = ids(orgC().queryParam("createdAtGe", since).when().get(collection));
        assertEquals(100, page.size());
        assertEquals(reversed(created).subList(0, 100), page);
        List<String> all = ids(orgC().queryParam("createdAtGe", since).queryParam("limit", 1000).when().get(collection));
        assertEquals(reversed(created), all.subList(0, created.size()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/assistant", "/squad"})
    void limitBoundsAndValidation(String collection) {
        List<String> created = create(collection, 3);
        String since = createdAt(collection, created.getFirst());
        orgC().queryParam("createdAtGe", since).queryParam("limit", 2).when().get(collection)
                .then().statusCode(200).body("id", contains(created.get(2), created.get(1)));
        orgC().queryParam("limit", 0).when().get(collection).then().statusCode(200).body("$", empty());
        orgC().queryParam("limit", 1000).when().get(collection).then().statusCode(200);
        orgC().queryParam("limit", 1001).when().get(collection).then().statusCode(400)
                .body("message", contains("limit must not be greater than 1000"));
        orgC().queryParam("limit", -1).when().get(collection).then().statusCode(400)
                .body("message", contains("limit must not be less than 0"));
        orgC().queryParam("limit", "ten").when().get(collection).then().statusCode(400)
                .body("message", contains("limit must be an integer number"));
        orgC().queryParam("limit", "2.5").when().get(collection).then().statusCode(400)
                .body("message", contains("limit must be an integer number"));
        orgC().queryParam("createdAtGt", "yesterday").when().get(collection).then().statusCode(400)
                .body("message", contains("createdAtGt must be a valid ISO 8601 date string"));
        orgC().queryParam("sort", "name").when().get(collection).then().statusCode(400)
                .body("message", contains("property sort should not exist"));
        orgC().queryParam("assistantId", created.getFirst()).when().get(collection).then().statusCode(400)
                .body("message", contains("property assistantId should not exist"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/assistant", "/squad"})
    void createdAtFiltersCompareStrictlyOrInclusively(String collection) {
        List<String> created = create(collection, 3);
        String first = createdAt(collection, created.get(0));
        String second = createdAt(collection, created.get(1));
        String third = createdAt(collection, created.get(2));
        // The three may share a millisecond; then the strict filters exclude all of them alike.
        List<String> between = own(created,
                orgC().queryParam("createdAtGe", first).queryParam("createdAtLe", third).when().get(collection));
        assertEquals(reversed(created), between);
        List<String> after = own(created,
                orgC().queryParam("createdAtGt", second).queryParam("createdAtLe", third).when().get(collection));
        assertEquals(expected(created, List.of(first, second, third), stamp -> stamp.compareTo(second) > 0), after);
        List<String> before = own(created,
                orgC().queryParam("createdAtLt", second).queryParam("createdAtGe", first).when().get(collection));
        assertEquals(expected(created, List.of(first, second, third), stamp -> stamp.compareTo(second) < 0), before);
        orgC().queryParam("createdAtGt", third).queryParam("createdAtLt", first).when().get(collection)
                .then().statusCode(200).body("$", empty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/assistant", "/squad"})
    void updatedAtFiltersSeeChanges(String collection) {
        List<String> created = create(collection, 2);
        String since = createdAt(collection, created.getFirst());
        String before = updatedAt(collection, created.get(0));
        String patched = orgC().body(patch(collection)).when().patch(collection + "/" + created.get(0))
                .then().statusCode(200).extract().path("updatedAt");
        List<String> stamps = List.of(patched, updatedAt(collection, created.get(1)));
        for (String bound : List.of(before, patched)) {
            for (String operator : List.of("Gt", "Ge", "Lt", "Le")) {
                java.util.function.Predicate<String> keep = switch (operator) {
                    case "Gt" -> stamp -> stamp.compareTo(bound) > 0;
                    case "Ge" -> stamp -> stamp.compareTo(bound) >= 0;
                    case "Lt" -> stamp -> stamp.compareTo(bound) < 0;
                    default -> stamp -> stamp.compareTo(bound) <= 0;
                };
                List<String> listed = own(created, orgC().queryParam("updatedAt" + operator, bound)
                        .queryParam("createdAtGe", since).when().get(collection));
                assertEquals(expected(created, stamps, keep), listed, "updatedAt" + operator + "=" + bound);
            }
        }
        // Whatever the clock did, the patched one is now after its old updatedAt and at its new one.
        org.junit.jupiter.api.Assertions.assertTrue(
                ids(orgC().queryParam("updatedAtGt", before).queryParam("createdAtGe", since).when().get(collection))
                        .contains(created.get(0)));
        org.junit.jupiter.api.Assertions.assertFalse(
                ids(orgC().queryParam("updatedAtLt", patched).queryParam("createdAtGe", since).when().get(collection))
                        .contains(created.get(0)));
    }

    private static String updatedAt(String collection, String id) {
        return orgC().when().get(collection + "/" + id).then().statusCode(200).extract().path("updatedAt");
    }

    private static List<String> create(String collection, int count) {
        List<String> ids = new ArrayList<>();
        Supplier<String> body = () -> collection.equals("/squad")
                ? "{\"members\":[{\"assistant\":{\"name\":\"inline\"}}]}"
                : "{\"name\":\"listed\"}";
        for (int i = 0; i < count; i++) {
            ids.add(orgC().body(body.get()).when().post(collection).then().statusCode(201).extract().path("id"));
        }
        return ids;
    }

    private static String patch(String collection) {
        return collection.equals("/squad") ? "{\"members\":[{\"assistant\":{\"name\":\"changed\"}}]}" : "{\"name\":\"changed\"}";
    }

    private static String createdAt(String collection, String id) {
        return orgC().when().get(collection + "/" + id).then().statusCode(200).extract().path("createdAt");
    }

    private static List<String> ids(io.restassured.response.Response response) {
        JsonPath json = response.then().statusCode(200).extract().jsonPath();
        return json.getList("id");
    }

    /**
     * The listed ids that this test created, in the listed order. Another test's rows created in the same
     * millisecond as this test's first one also pass {@code createdAtGe}; they are older, so listed after.
     */
    private static List<String> own(List<String> created, io.restassured.response.Response response) {
        List<String> listed = new ArrayList<>(ids(response));
        listed.retainAll(created);
        return listed;
    }

    private static List<String> reversed(List<String> ids) {
        List<String> copy = new ArrayList<>(ids);
        java.util.Collections.reverse(copy);
        return copy;
    }

    /** The created ids (newest first) whose createdAt passes the filter. */
    private static List<String> expected(List<String> ids, List<String> stamps,
            java.util.function.Predicate<String> keep) {
        List<String> kept = new ArrayList<>();
        for (int i = ids.size() - 1; i >= 0; i--) {
            if (keep.test(stamps.get(i))) {
                kept.add(ids.get(i));
            }
        }
        return kept;
    }
}
