package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.call.service.CallCreation;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Creating calls: web and outbound, the assistant rules, references checked against their services, the frozen configuration. */
@QuarkusTest
class CallCreationTest {

    static final String INLINE = "{\"name\":\"inline\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"}}";

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aWebCallIsQueuedWithItsRuntimeUrlAndAStatusUpdate() throws Exception {
        String id = orgA().body("{\"assistant\":" + INLINE + ",\"name\":\"web one\",\"metadata\":{\"n\":1.50}}")
                .when().post("/call/web").then().statusCode(201)
                .body("type", equalTo("webCall"))
                .body("status", equalTo("queued"))
                .body("orgId", equalTo(TestKeys.ORG_A))
                .body("assistant.name", equalTo("inline"))
                .body("name", equalTo("web one"))
                .body("metadata.n", equalTo(1.50f))
                .body("createdAt", notNullValue())
                .body("endedReason", nullValue())
                .extract().path("id");
        orgA().when().get("/call/" + id).then().statusCode(200)
                // The runtime's URL, the call's id, and the call's media token (RuntimeAttachTest verifies it).
                .body("webCallUrl", org.hamcrest.Matchers.matchesPattern(java.util.regex.Pattern.quote(
                        "https://runtime.test/call/" + id + "?token=v1." + id + ".")
                        + "[A-Za-z0-9_-]+\\.[0-9]+\\.[A-Za-z0-9_-]{43}"))
                .body("status", equalTo("queued"));
        assertEquals(List.of("status-update"), Outboxes.types(dataSource, id));
        String payload = Outboxes.payloads(dataSource, id, "status-update").getFirst();
        assertTrue(payload.contains("\"status\": \"queued\""), payload);
        assertTrue(payload.contains("\"type\": \"status-update\""), payload);
        // POST /call without a customer is a web call too.
        orgA().body("{\"assistant\":" + INLINE + "}").when().post("/call").then().statusCode(201)
                .body("type", equalTo("webCall"));
    }

    @Test
    void exactlyOneOfAssistantIdAssistantSquadIdSquad() {
        for (String body : new String[] {"{}", "{\"name\":\"x\"}",
                "{\"assistant\":" + INLINE + ",\"assistantId\":\"" + newId() + "\"}",
                "{\"assistant\":" + INLINE + ",\"squad\":{\"members\":[{\"assistant\":" + INLINE + "}]}}"}) {
            orgA().body(body).when().post("/call/web").then().statusCode(400)
                    .body("message", hasItem(CallCreation.NEED_ONE_ASSISTANT))
                    .body("error", equalTo("Bad Request"));
        }
    }

    @Test
    void anInlineAssistantIsValidatedAsAssistantServiceValidatesIt() {
        orgA().body("{\"assistant\":{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"temperature\":5},"
                + "\"firstMessageMode\":\"shout\"}}").when().post("/call/web").then().statusCode(400)
                .body("message", hasItem("assistant.model.temperature must not be greater than 2"))
                .body("message", hasItem(startsWith("assistant.firstMessageMode must be one of the following values")));
        orgA().body("{\"assistant\":" + INLINE + ",\"foo\":1}").when().post("/call/web").then().statusCode(400)
                .body("message", hasItem("property foo should not exist"));
        orgA().body("{\"squad\":{\"members\":[]}}").when().post("/call/web").then().statusCode(400)
                .body("message", hasItem("squad.members must contain at least 1 elements"));
        orgA().body("{\"assistant\":" + INLINE + ",\"customer\":{\"number\":\"0415\",\"name\":\""
                + "x".repeat(41) + "\"},\"phoneNumberId\":\"" + newId() + "\"}").when().post("/call/phone")
                .then().statusCode(400)
                .body("message", hasItem("customer.number must be a valid phone number in the E.164 format"))
                .body("message", hasItem("customer.name must be shorter than or equal to 40 characters"));
    }

    @Test
    void unknownReferencesAre400sNamingThemAndNothingIsWritten() throws Exception {
        String name = "unknown " + newId().substring(0, 8);
        String assistantId = newId();
        Stubs.unknownAssistant(wireMock, assistantId);
        orgA().body("{\"assistantId\":\"" + assistantId + "\",\"name\":\"" + name + "\"}").when().post("/call/web")
                .then().statusCode(400).body("message", hasItem("assistantId " + assistantId + " does not exist"));

        String known = Stubs.assistant(wireMock, TestKeys.ORG_A, "{\"name\":\"known\"}");
        String numberId = newId();
        orgA().body("{\"assistantId\":\"" + known + "\",\"name\":\"" + name + "\",\"phoneNumberId\":\"" + numberId
                + "\",\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone")
                .then().statusCode(400).body("message", hasItem("phoneNumberId " + numberId + " does not exist"));

        String member = newId();
        Stubs.unknownAssistant(wireMock, member);
        orgA().body("{\"squad\":{\"members\":[{\"assistant\":" + INLINE + "},{\"assistantId\":\"" + member + "\"}]},"
                + "\"name\":\"" + name + "\"}").when().post("/call/web")
                .then().statusCode(400).body("message", hasItem("squad.members.1.assistantId " + member + " does not exist"));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from call.calls where name = ?", name));
    }

    @Test
    void anUnreachableAssistantServiceIsA503AndNothingIsWritten() throws Exception {
        String name = "unreachable " + newId().substring(0, 8);
        String assistantId = newId();
        Stubs.brokenAssistant(wireMock, assistantId);
        orgA().body("{\"assistantId\":\"" + assistantId + "\",\"name\":\"" + name + "\"}").when().post("/call/web")
                .then().statusCode(503)
                .body("message", startsWith("assistant-service is unavailable"))
                .body("error", equalTo("Service Unavailable"));
        assertEquals(0, TestDatabase.count(dataSource, "select count(*) from call.calls where name = ?", name));
    }

    @Test
    void theAssistantIsFrozenAtCreationWithItsSecretsSealed() throws Exception {
        String assistantId = Stubs.assistant(wireMock, TestKeys.ORG_A,
                "{\"name\":\"before\",\"serverUrl\":\"https://hooks.example.com/a\",\"serverUrlSecret\":\"frozen-s3cret\"}");
        String id = orgA().body("{\"assistantId\":\"" + assistantId + "\",\"assistantOverrides\":{\"firstMessage\":\"Hi {{name}}\","
                        + "\"variableValues\":{\"name\":\"Ada\"}}}")
                .when().post("/call/web").then().statusCode(201)
                .body("assistantId", equalTo(assistantId))
                .body("assistant.name", equalTo("before"))
                .body("assistant.serverUrl", equalTo("https://hooks.example.com/a"))
                .body("assistant.serverUrlSecret", nullValue())
                .body("assistantOverrides.variableValues.name", equalTo("Ada"))
                .extract().path("id");
        // A later change of the assistant does not rewrite the call.
        Stubs.assistant(wireMock, TestKeys.ORG_A, assistantId, "{\"name\":\"after\"}");
        orgA().when().get("/call/" + id).then().statusCode(200).body("assistant.name", equalTo("before"))
                .body("assistant.serverUrlSecret", nullValue());
        String stored = Outboxes.column(dataSource, "select configuration::text from call.call_documents where call_id = ?::uuid", id).getFirst();
        assertFalse(stored.contains("frozen-s3cret"), stored);
        assertTrue(stored.contains("sealed:v1:"), stored);
        // The secret is write-only, not lost: the voice runtime reads it opened over the internal route.
        dev.voiceplane.kit.testing.TestClients.internal(TestKeys.ORG_A).when().get("/internal/call/" + id + "/runtime").then().statusCode(200)
                .body("assistant.serverUrlSecret", equalTo("frozen-s3cret"))
                .body("call.assistant.serverUrlSecret", nullValue());
    }

    /**
     * The customer's webhook secrets of an inline assistant, its overrides and an inline squad are write-only
     * (issue 24): not in the create answer, GET, the list, nor any server message stored in the outbox; sealed in
     * the call's documents; answered opened only to the voice runtime.
     */
    @Test
    void inlineSecretsAreNeverAnsweredNorWrittenToTheOutbox() throws Exception {
        String tag = newId();
        String assistantSecret = "assistant-secret-" + tag;
        String toolSecret = "tool-secret-" + tag;
        String overrideSecret = "override-secret-" + tag;
        String memberSecret = "member-secret-" + tag;
        String memberToolSecret = "member-tool-secret-" + tag;
        String tool = "{\"type\":\"function\",\"function\":{\"name\":\"lookup\"},\"server\":{\"url\":"
                + "\"https://hooks.example.com/tool\",\"secret\":\"%s\"}}";
        String assistant = "{\"name\":\"inline\",\"serverUrl\":\"https://hooks.example.com/a\",\"serverUrlSecret\":\""
                + assistantSecret + "\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"tools\":["
                + tool.formatted(toolSecret) + "]}}";
        String single = orgA().body("{\"assistant\":" + assistant + ",\"assistantOverrides\":{\"serverUrlSecret\":\""
                        + overrideSecret + "\"}}")
                .when().post("/call/web").then().statusCode(201)
                .body("assistant.serverUrl", equalTo("https://hooks.example.com/a"))
                .body("assistant.model.tools[0].server.url", equalTo("https://hooks.example.com/tool"))
                .extract().asString();
        String singleId = io.restassured.path.json.JsonPath.from(single).getString("id");
        String member = "{\"name\":\"member\",\"serverUrl\":\"https://hooks.example.com/m\",\"serverUrlSecret\":\""
                + memberSecret + "\",\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"tools\":["
                + tool.formatted(memberToolSecret) + "]}}";
        String squad = orgA().body("{\"squad\":{\"members\":[{\"assistant\":" + member + ",\"assistantOverrides\":"
                        + "{\"serverUrlSecret\":\"" + overrideSecret + "\"}}]}}")
                .when().post("/call/web").then().statusCode(201)
                .body("squad.members[0].assistant.serverUrl", equalTo("https://hooks.example.com/m"))
                .extract().asString();
        String squadId = io.restassured.path.json.JsonPath.from(squad).getString("id");
        List<String> secrets = List.of(assistantSecret, toolSecret, overrideSecret, memberSecret, memberToolSecret);

        List<String> answers = new java.util.ArrayList<>(List.of(single, squad,
                orgA().when().get("/call/" + singleId).then().statusCode(200).extract().asString(),
                orgA().when().get("/call/" + squadId).then().statusCode(200).extract().asString(),
                orgA().queryParam("limit", 1000).when().get("/call").then().statusCode(200).extract().asString()));
        for (String callId : List.of(singleId, squadId)) {
            answers.addAll(Outboxes.column(dataSource, "select payload::text from call.call_outbox where call_id = ?::uuid", callId));
            answers.addAll(Outboxes.column(dataSource, "select configuration::text from call.call_documents where call_id = ?::uuid", callId));
            answers.addAll(Outboxes.column(dataSource, "select details::text from call.calls where id = ?::uuid", callId));
        }
        assertTrue(answers.size() >= 9, "every call has its status-update, documents and row: " + answers.size());
        for (String answer : answers) {
            for (String secret : secrets) {
                assertFalse(answer.contains(secret), "a secret shown or stored in clear: " + answer);
            }
        }
        dev.voiceplane.kit.testing.TestClients.internal(TestKeys.ORG_A).when().get("/internal/call/" + singleId + "/runtime").then().statusCode(200)
                .body("assistant.serverUrlSecret", equalTo(overrideSecret))
                .body("assistant.model.tools[0].server.secret", equalTo(toolSecret));
        dev.voiceplane.kit.testing.TestClients.internal(TestKeys.ORG_A).when().get("/internal/call/" + squadId + "/runtime").then().statusCode(200)
                .body("squad.members[0].assistant.serverUrlSecret", equalTo(overrideSecret))
                .body("squad.members[0].assistant.model.tools[0].server.secret", equalTo(memberToolSecret));
    }

    @Test
    void anOutboundCallIsDialledAfterItIsStored() {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        Stubs.dial(wireMock, numberId, "CA" + newId().replace("-", ""));
        String id = orgA().body("{\"assistant\":" + INLINE + ",\"phoneNumberId\":\"" + numberId
                        + "\",\"customer\":{\"number\":\"+14155550123\",\"name\":\"Ada\",\"extension\":\"12\"}}")
                .when().post("/call").then().statusCode(201)
                .body("type", equalTo("outboundPhoneCall"))
                .body("status", equalTo("queued"))
                .body("phoneCallProvider", equalTo("twilio"))
                .body("phoneCallTransport", equalTo("pstn"))
                .body("phoneCallProviderId", startsWith("CA"))
                .body("phoneCallProviderDetails.statusCallbackEvent", equalTo("initiated"))
                .body("customer.name", equalTo("Ada"))
                .body("phoneNumberId", equalTo(numberId))
                .extract().path("id");
        wireMock.verify(1, postRequestedFor(urlEqualTo("/internal/phone-number/" + numberId + "/dial"))
                .withRequestBody(matchingJsonPath("$.callId", com.github.tomakehurst.wiremock.client.WireMock.equalTo(id)))
                .withRequestBody(matchingJsonPath("$.customer.number", com.github.tomakehurst.wiremock.client.WireMock.equalTo("+14155550123")))
                .withRequestBody(matchingJsonPath("$.maxDurationSeconds", com.github.tomakehurst.wiremock.client.WireMock.equalTo("1800"))));
    }

    @Test
    void aRefusedDialEndsTheCallButTheClientGetsIts201() throws Exception {
        String numberId = Stubs.phoneNumber(wireMock, TestKeys.ORG_A, null, null);
        Stubs.dialRefused(wireMock, numberId);
        String id = orgA().body("{\"assistant\":" + INLINE + ",\"phoneNumberId\":\"" + numberId
                        + "\",\"customer\":{\"number\":\"+14155550123\"}}")
                .when().post("/call/phone").then().statusCode(201)
                .body("status", equalTo("ended"))
                .body("endedReason", equalTo("twilio-failed-to-connect-call"))
                .body("endedAt", notNullValue())
                .extract().path("id");
        assertEquals(List.of("status-update", "status-update", "end-of-call-report"), Outboxes.types(dataSource, id));
        orgA().when().get("/call/" + id).then().body("cost", equalTo(0.0f));
    }

    @Test
    void aPhoneCallNeedsANumberAndACustomer() {
        orgA().body("{\"assistant\":" + INLINE + "}").when().post("/call/phone").then().statusCode(400)
                .body("message", hasItem("Need Either `phoneNumber` Or `phoneNumberId`."))
                .body("message", hasItem("customer.number must be given for a phone call"));
        // An inline number is supported now (InlinePhoneNumberTest), but it must be complete.
        orgA().body("{\"assistant\":" + INLINE + ",\"phoneNumber\":{\"twilioPhoneNumber\":\"+14155550100\"},"
                + "\"customer\":{\"number\":\"+14155550123\"}}").when().post("/call/phone").then().statusCode(400)
                .body("message", hasItem("phoneNumber.twilioAccountSid should not be empty"))
                .body("message", hasItem("phoneNumber.twilioAuthToken should not be empty"));
        orgA().body("{\"assistant\":" + INLINE + ",\"phoneNumberId\":\"" + newId() + "\"}").when().post("/call/web")
                .then().statusCode(400).body("message", hasItem("property phoneNumberId should not exist"));
    }
}
