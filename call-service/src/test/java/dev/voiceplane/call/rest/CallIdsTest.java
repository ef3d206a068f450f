package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.aMapWithSize;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The ids a call names are the caller's to get right: a value that cannot be an id is a 400 before any other
 * service is asked (it used to travel to assistant-service, be refused there, and come back as "assistant-service
 * is unavailable… try again later"), and another service refusing what it is asked is never reported as an outage.
 */
@QuarkusTest
class CallIdsTest {

    private static final String HUGE = "a".repeat(100_000);
    private static final String INLINE = CallCreationTest.INLINE;

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    private long calls() throws Exception {
        return TestDatabase.count(dataSource, "select count(*) from call.calls");
    }

    private int peerRequests() {
        return wireMock.findAll(anyRequestedFor(urlPathMatching("/internal/(assistant|squad|phone-number).*"))).size();
    }

    @Test
    void anIdThatIsNotAUuidIsA400BeforeAnyServiceIsAsked() throws Exception {
        long before = calls();
        int asked = peerRequests();
        String customer = ",\"customer\":{\"number\":\"+14155550123\"}";
        String[][] cases = {
            {"/call", "{\"assistantId\":\"" + HUGE + "\"}", "assistantId must be a UUID"},
            {"/call/web", "{\"assistantId\":\"" + HUGE + "\"}", "assistantId must be a UUID"},
            {"/call/phone", "{\"assistantId\":\"" + HUGE + "\",\"phoneNumberId\":\"" + newId() + "\"" + customer + "}",
                "assistantId must be a UUID"},
            {"/call", "{\"squadId\":\"" + HUGE + "\"}", "squadId must be a UUID"},
            {"/call/web", "{\"squadId\":\"not-a-squad\"}", "squadId must be a UUID"},
            {"/call/phone", "{\"assistant\":" + INLINE + ",\"phoneNumberId\":\"" + HUGE + "\"" + customer + "}",
                "phoneNumberId must be a UUID"},
            {"/call", "{\"assistant\":" + INLINE + ",\"phoneNumberId\":\"%00\"" + customer + "}",
                "phoneNumberId must be a UUID"},
            {"/call/web", "{\"squad\":{\"members\":[{\"assistantId\":\"" + HUGE + "\"}]}}",
                "squad.members.0.assistantId must be a UUID"},
        };
        for (String[] bad : cases) {
            orgA().body(bad[1]).when().post(bad[0]).then().statusCode(400)
                    .body("$", aMapWithSize(3))
                    .body("error", equalTo("Bad Request"))
                    .body("message", hasItem(bad[2]));
        }
        assertEquals(asked, peerRequests(), "another service was asked about ids that cannot be ids");
        assertEquals(before, calls());
    }

    @Test
    void aWellFormedIdThatDoesNotExistIsStillNamedAsSuch() {
        String unknown = newId();
        Stubs.unknownAssistant(wireMock, unknown);
        orgA().body("{\"assistantId\":\"" + unknown + "\"}").when().post("/call/web").then().statusCode(400)
                .body("message", contains("assistantId " + unknown + " does not exist"));
    }

    @Test
    void anotherServiceRefusingAReadIsNotReportedAsAnOutage() {
        String id = newId();
        // assistant-service refusing a well-formed read (a token or version mismatch between services): not an
        // outage a client should wait out, and never a 5xx (issue 45): a 400 naming the service and its answer.
        wireMock.stubFor(get(urlEqualTo("/internal/assistant/" + id)).willReturn(aResponse().withStatus(401)));
        orgA().body("{\"assistantId\":\"" + id + "\"}").when().post("/call/web").then().statusCode(400)
                .header("Retry-After", (String) null)
                .body("$", aMapWithSize(3))
                .body("statusCode", equalTo(400))
                .body("message", contains("assistant-service refused to answer assistant " + id
                        + " (401); nothing was written"));
    }

    /** {@code count} distinct well-formed tool ids, as a JSON array. */
    private static String toolIds(int count) {
        StringBuilder ids = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            ids.append(i == 0 ? "" : ",").append('"').append(newId()).append('"');
        }
        return ids.append(']').toString();
    }

    private static String withToolIds(String ids) {
        return "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"toolIds\":" + ids + "}}";
    }

    private int toolLookups() {
        return wireMock.findAll(anyRequestedFor(urlPathMatching("/internal/tool/.*"))).size();
    }

    @Test
    void aToolListOverTheLookupLimitIsA400NamingTheLimitBeforeAnyServiceIsAsked() throws Exception {
        long before = calls();
        int asked = peerRequests() + toolLookups();
        String customer = ",\"customer\":{\"number\":\"+14155550123\"},\"phoneNumberId\":\"" + newId() + "\"";
        for (int count : new int[] {1001, 5000}) {
            String tooMany = withToolIds(toolIds(count));
            String[][] cases = {
                {"/call", "{\"assistant\":" + tooMany + "}", "assistant."},
                {"/call/web", "{\"assistant\":" + tooMany + "}", "assistant."},
                {"/call/phone", "{\"assistant\":" + tooMany + customer + "}", "assistant."},
                {"/call", "{\"assistant\":" + INLINE + ",\"assistantOverrides\":" + tooMany + "}", "assistantOverrides."},
                {"/call/web", "{\"assistantId\":\"" + newId() + "\",\"assistantOverrides\":" + tooMany + "}",
                    "assistantOverrides."},
                {"/call/phone", "{\"assistant\":" + INLINE + ",\"assistantOverrides\":" + tooMany + customer + "}",
                    "assistantOverrides."},
                {"/call/web", "{\"squad\":{\"members\":[{\"assistant\":" + INLINE + "},{\"assistant\":" + tooMany
                    + "}]}}", "squad.members.1.assistant."},
                {"/call", "{\"squad\":{\"members\":[{\"assistant\":" + INLINE + ",\"assistantOverrides\":" + tooMany
                    + "}]}}", "squad.members.0.assistantOverrides."},
            };
            for (String[] bad : cases) {
                orgA().body(bad[1]).when().post(bad[0]).then().statusCode(400)
                        .body("$", aMapWithSize(3))
                        .body("error", equalTo("Bad Request"))
                        .body("message", hasItem(bad[2] + "model.toolIds must contain no more than 1000 elements (it has "
                                + count + ")"));
            }
        }
        assertEquals(asked, peerRequests() + toolLookups(), "another service was asked about a list over its limit");
        assertEquals(before, calls());
    }

    @Test
    void toolsNamedAcrossAssistantsBeyondOneLookupAreResolvedInSeveral() {
        // 600 ids on the assistant and 600 on its overrides: each list is within the limit, together they are not
        // one lookup's worth, so they are asked in two (the first 1000, then the rest).
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            ids.add(newId());
        }
        for (int start : new int[] {0, 1000}) {
            List<String> batch = ids.subList(start, Math.min(ids.size(), start + 1000));
            StringBuilder answer = new StringBuilder("[");
            for (String id : batch) {
                answer.append(answer.length() == 1 ? "" : ",").append("{\"id\":\"").append(id)
                        .append("\",\"type\":\"endCall\"}");
            }
            wireMock.stubFor(post(urlEqualTo("/internal/tool/resolve"))
                    .withRequestBody(matchingJsonPath("$.ids[0]", WireMock.equalTo(batch.getFirst())))
                    .willReturn(okJson(answer.append(']').toString())));
        }
        String first = ids.subList(0, 600).stream().map(id -> "\"" + id + "\"").collect(Collectors.joining(",", "[", "]"));
        String second = ids.subList(600, 1200).stream().map(id -> "\"" + id + "\"")
                .collect(Collectors.joining(",", "[", "]"));
        orgA().body("{\"assistant\":" + withToolIds(first) + ",\"assistantOverrides\":" + withToolIds(second) + "}")
                .when().post("/call/web").then().statusCode(201);
        wireMock.verify(2, postRequestedFor(urlEqualTo("/internal/tool/resolve"))
                .withRequestBody(matchingJsonPath("$.ids[0]", WireMock.equalTo(ids.getFirst())).or(
                        matchingJsonPath("$.ids[0]", WireMock.equalTo(ids.get(1000))))));
    }

    @Test
    void assistantServiceRefusingTheToolLookupIsA400NotA500() throws Exception {
        long before = calls();
        String toolId = newId();
        wireMock.stubFor(post(urlEqualTo("/internal/tool/resolve"))
                .withRequestBody(matchingJsonPath("$.ids[0]", WireMock.equalTo(toolId)))
                .willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":[\"ids must contain no more than 1000 elements\"],"
                                + "\"error\":\"Bad Request\",\"statusCode\":400}")));
        orgA().body("{\"assistant\":" + withToolIds("[\"" + toolId + "\"]") + "}").when().post("/call/web").then()
                .statusCode(400)
                .header("Retry-After", (String) null)
                .body("$", aMapWithSize(3))
                .body("message", contains("assistant-service refused to answer the tools of model.toolIds (400); "
                        + "nothing was written"));
        assertEquals(before, calls());
    }
}
