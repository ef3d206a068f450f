package dev.voiceplane.call.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.voiceplane.kit.testing.TestClients.internal;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A whole outbound call: placed through a WireMock carrier (telephony-service), run by a fake runtime (plain HTTP
 * calls to the internal routes), ending in the cost of the rate card and the analysis of the organisation's LLM.
 */
@QuarkusTest
class FullCallTest {

    static final String ASSISTANT = "{\"name\":\"sales\",\"firstMessage\":\"Hello\",\"maxDurationSeconds\":600,"
            + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"system\","
            + "\"content\":\"Sell the product.\"}]},\"voice\":{\"provider\":\"azure\",\"voiceId\":\"andrew\"},"
            + "\"transcriber\":{\"provider\":\"deepgram\"},"
            + "\"analysisPlan\":{\"successEvaluationRubric\":\"PassFail\",\"structuredDataSchema\":{\"type\":\"object\","
            + "\"properties\":{\"interested\":{\"type\":\"boolean\"}},\"required\":[\"interested\"]}}}";

    @InjectWireMock
    WireMockServer wireMock;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ObjectMapper json;

    private String runtimeEvent(long sequence, String type, String rest) {
        return "{\"sequence\":" + sequence + ",\"type\":\"" + type + "\"" + (rest.isEmpty() ? "" : "," + rest) + "}";
    }

    private void runtime(String org, String callId, String body, int status) {
        internal(org).body(body).when().post("/internal/call/" + callId + "/runtime/events").then().statusCode(status);
    }

    @Test
    void aTranscriptMessageOfARoleNoOneSpeaksInIsA400() throws Exception {
        String id = TestClients.orgA().body("{\"assistant\":" + CallCreationTest.INLINE + "}").when().post("/call/web")
                .then().statusCode(201).extract().path("id");
        // Issue 45: any role was stored, and the transcript and messages then left it out without a word.
        for (String role : List.of("nobody", "BOT", "", "tool_calls", "User ")) {
            internal(TestKeys.ORG_A).body(runtimeEvent(1, "message", "\"message\":{\"role\":\"" + role
                            + "\",\"message\":\"Hello\"}"))
                    .when().post("/internal/call/" + id + "/runtime/events").then().statusCode(400)
                    .body("statusCode", org.hamcrest.Matchers.equalTo(400))
                    .body("message", hasItem("message.role must be one of the following values: bot, assistant, user, "
                            + "system, tool"));
        }
        runtime(TestKeys.ORG_A, id, runtimeEvent(1, "message", "\"message\":{\"role\":\"bot\",\"message\":\"Hello\"}"),
                200);
        JsonNode call = json.readTree(TestClients.orgA().when().get("/call/" + id).then().statusCode(200).extract()
                .asString());
        assertEquals(1, call.path("messages").size(), call.toString());
        assertEquals("AI: Hello\n", call.path("transcript").asText());
    }

    @Test
    void aFullCallEndsWithItsCostAndAnalysis() throws Exception {
        String orgId = TestKeys.ORG_A;
        String apiKey = "sk-full-" + newId();
        Stubs.openAiKey(wireMock, orgId, apiKey);
        Stubs.chat(wireMock, apiKey, "note-taker", "The customer wants the product.");
        Stubs.chat(wireMock, apiKey, "call evaluator", "true");
        Stubs.chat(wireMock, apiKey, "data extractor", "{\"interested\": true}");
        String numberId = Stubs.phoneNumber(wireMock, orgId, null, null);
        String carrierCallId = "CA" + newId().replace("-", "");
        Stubs.dial(wireMock, numberId, carrierCallId);

        String id = TestClients.orgA().body("{\"assistant\":" + ASSISTANT + ",\"assistantOverrides\":{\"firstMessage\":"
                        + "\"Hi {{name}}\",\"variableValues\":{\"name\":\"Ada\"}},\"phoneNumberId\":\"" + numberId
                        + "\",\"customer\":{\"number\":\"+14155550123\"}}")
                .when().post("/call/phone").then().statusCode(201).extract().path("id");

        // The runtime reads what it runs with: overrides applied, providers named, no secrets of the number.
        internal(orgId).when().get("/internal/call/" + id + "/runtime").then().statusCode(200)
                .body("assistant.firstMessage", org.hamcrest.Matchers.equalTo("Hi {{name}}"))
                .body("assistant.name", org.hamcrest.Matchers.equalTo("sales"))
                .body("variableValues.name", org.hamcrest.Matchers.equalTo("Ada"))
                .body("credentialProviders", hasItem("deepgram"))
                .body("credentialProviders", hasItem("azure"))
                .body("phoneNumber.id", org.hamcrest.Matchers.equalTo(numberId))
                .body("phoneNumber.serverUrlSecret", org.hamcrest.Matchers.nullValue())
                .body("call.id", org.hamcrest.Matchers.equalTo(id));
        TestClients.orgA().when().get("/internal/call/" + id + "/runtime").then().statusCode(401);

        CarrierEventsTest.report(CarrierEventsTest.event("e1", id, carrierCallId, "status", "ringing", null, 1L, null), true, true, "ringing");
        CarrierEventsTest.report(CarrierEventsTest.event("e2", id, carrierCallId, "status", "in-progress", null, 2L, null), true, true, "in-progress");
        // Transcript messages arrive out of order and one twice; the runtime's own "in-progress" comes late.
        runtime(orgId, id, runtimeEvent(2, "message", "\"message\":{\"role\":\"user\",\"message\":\"Hi\",\"secondsFromStart\":2.5}"), 200);
        runtime(orgId, id, runtimeEvent(1, "message", "\"message\":{\"role\":\"bot\",\"message\":\"Hello\",\"secondsFromStart\":0.5}"), 200);
        runtime(orgId, id, runtimeEvent(1, "message", "\"message\":{\"role\":\"bot\",\"message\":\"Hello\",\"secondsFromStart\":0.5}"), 200);
        runtime(orgId, id, runtimeEvent(0, "in-progress", ""), 200);
        runtime(orgId, id, runtimeEvent(3, "hang", ""), 200);
        runtime(orgId, id, runtimeEvent(4, "message", "\"message\":{\"role\":\"nobody\"}"), 400);
        CarrierEventsTest.report(CarrierEventsTest.event("e3", id, carrierCallId, "status", "completed", null, 3L, 120L), true, true, "ended");
        // Ended, but the report waits for the runtime's usage.
        assertEquals(List.of("status-update", "status-update", "status-update", "hang", "status-update"),
                Outboxes.types(dataSource, id));
        runtime(orgId, id, runtimeEvent(5, "ended", "\"endedReason\":\"assistant-ended-call\",\"usage\":{\"sttSeconds\":90,"
                + "\"llmPromptTokens\":1000,\"llmCompletionTokens\":200,\"ttsCharacters\":500},"
                + "\"recordingUrl\":\"https://recordings.example.com/" + id + ".wav\""), 200);
        runtime(orgId, id, runtimeEvent(6, "ended", "\"endedReason\":\"nonsense\""), 400);

        String body = TestClients.orgA().when().get("/call/" + id).then().statusCode(200).extract().asString();
        JsonNode call = json.readTree(body);
        assertEquals("ended", call.path("status").asText());
        assertEquals("customer-ended-call", call.path("endedReason").asText(), "the first end wins");
        assertEquals("AI: Hello\nUser: Hi\n", call.path("transcript").asText());
        assertEquals(2, call.path("messages").size());
        assertEquals("https://recordings.example.com/" + id + ".wav", call.path("recordingUrl").asText());
        // 120 s on the carrier; 90 s stt; 1000 + 200 tokens; 500 characters; three analysis requests of 100 + 10 tokens.
        JsonNode cost = call.path("costBreakdown");
        assertEquals(0, new BigDecimal("0.02").compareTo(cost.path("transport").decimalValue()));
        assertEquals(0, new BigDecimal("0.015").compareTo(cost.path("stt").decimalValue()));
        assertEquals(0, new BigDecimal("0.0045").compareTo(cost.path("llm").decimalValue()));
        assertEquals(0, new BigDecimal("0.0075").compareTo(cost.path("tts").decimalValue()));
        assertEquals(0, new BigDecimal("0.1").compareTo(cost.path("platform").decimalValue()));
        assertEquals(0, new BigDecimal("0.00035").compareTo(cost.path("analysisCostBreakdown").path("summary").decimalValue()));
        assertEquals(100, cost.path("analysisCostBreakdown").path("summaryPromptTokens").asInt());
        assertEquals(0, new BigDecimal("0.14805").compareTo(cost.path("total").decimalValue()), cost.toString());
        assertEquals(0, cost.path("total").decimalValue().compareTo(call.path("cost").decimalValue()));
        assertEquals(1000, cost.path("llmPromptTokens").asInt());
        assertEquals(500, cost.path("ttsCharacters").asInt());
        // A runtime of the earlier contract sent totals only: costs has them as entries of no provider, the
        // transport its carrier's, the analysis its three requests, and they sum to cost.
        BigDecimal sum = BigDecimal.ZERO;
        List<String> types = new java.util.ArrayList<>();
        for (JsonNode entry : call.path("costs")) {
            sum = sum.add(entry.path("cost").decimalValue());
            types.add(entry.path("type").asText() + (entry.has("analysisType") ? " " + entry.path("analysisType").asText()
                    : ""));
        }
        assertEquals(List.of("transport", "transcriber", "model", "voice", "vapi", "analysis summary",
                "analysis structuredData", "analysis successEvaluation"), types, call.path("costs").toString());
        assertEquals(0, sum.compareTo(call.path("cost").decimalValue()), call.path("costs").toString());
        assertEquals(call.path("phoneCallProvider").asText(), call.path("costs").path(0).path("provider").asText());
        assertEquals(0, new BigDecimal("2").compareTo(call.path("costs").path(0).path("minutes").decimalValue()));
        assertEquals(1000, call.path("costs").path(2).path("promptTokens").asInt());
        assertEquals(0, new BigDecimal("0.0045").compareTo(call.path("costs").path(2).path("cost").decimalValue()));
        assertEquals("openai", call.path("costs").path(5).path("model").path("provider").asText());
        assertEquals("The customer wants the product.", call.path("analysis").path("summary").asText());
        assertEquals("true", call.path("analysis").path("successEvaluation").asText());
        assertEquals("{\"interested\":true}", call.path("analysis").path("structuredData").asText());
        wireMock.verify(3, postRequestedFor(urlEqualTo("/chat/completions")).withHeader("Authorization", equalTo("Bearer " + apiKey)));

        assertEquals(List.of("status-update", "status-update", "status-update", "hang", "status-update", "end-of-call-report"),
                Outboxes.types(dataSource, id));
        JsonNode report = json.readTree(Outboxes.payloads(dataSource, id, "end-of-call-report").getFirst()).path("message");
        assertEquals("end-of-call-report", report.path("type").asText());
        assertEquals("customer-ended-call", report.path("endedReason").asText());
        assertEquals("AI: Hello\nUser: Hi\n", report.path("transcript").asText());
        assertEquals("The customer wants the product.", report.path("summary").asText());
        assertEquals(2, report.path("messages").size());
        assertEquals(id, report.path("call").path("id").asText());
        assertEquals("+14155550123", report.path("customer").path("number").asText());
        assertEquals(numberId, report.path("phoneNumber").path("id").asText());
        assertTrue(report.has("timestamp"));
        JsonNode ended = json.readTree(Outboxes.payloads(dataSource, id, "status-update").getLast()).path("message");
        assertEquals("ended", ended.path("status").asText());
        assertEquals("customer-ended-call", ended.path("endedReason").asText());
    }

    @Test
    void aFailedAnalysisLeavesTheCallEndedWithItsCost() throws Exception {
        String orgId = TestKeys.ORG_B;
        String apiKey = "sk-broken-" + newId();
        Stubs.openAiKey(wireMock, orgId, apiKey);
        wireMock.stubFor(com.github.tomakehurst.wiremock.client.WireMock.post(urlEqualTo("/chat/completions"))
                .withHeader("Authorization", equalTo("Bearer " + apiKey))
                .willReturn(com.github.tomakehurst.wiremock.client.WireMock.serverError()));
        String id = TestClients.orgB().body("{\"assistant\":" + ASSISTANT + "}").when().post("/call/web")
                .then().statusCode(201).extract().path("id");
        runtime(orgId, id, runtimeEvent(0, "in-progress", ""), 200);
        runtime(orgId, id, runtimeEvent(1, "message", "\"message\":{\"role\":\"bot\",\"message\":\"Hello\"}"), 200);
        runtime(orgId, id, runtimeEvent(2, "ended", "\"endedReason\":\"silence-timed-out\",\"usage\":{\"sttSeconds\":30}"), 200);
        JsonNode call = json.readTree(TestClients.orgB().when().get("/call/" + id).then().statusCode(200).extract().asString());
        assertEquals("ended", call.path("status").asText());
        assertEquals("silence-timed-out", call.path("endedReason").asText());
        assertFalse(call.has("analysis"), call.toString());
        assertEquals(0, new BigDecimal("0.005").compareTo(call.path("costBreakdown").path("stt").decimalValue()));
        assertEquals(0, BigDecimal.ZERO.compareTo(call.path("costBreakdown").path("transport").decimalValue()), "a web call has no transport");
        assertEquals(List.of("status-update", "status-update", "status-update", "end-of-call-report"), Outboxes.types(dataSource, id));
    }

    @Test
    void onlyTheServerMessagesTheAssistantAskedForAreWritten() throws Exception {
        String id = TestClients.orgA().body("{\"assistant\":{\"serverMessages\":[\"end-of-call-report\"]}}")
                .when().post("/call/web").then().statusCode(201).extract().path("id");
        runtime(TestKeys.ORG_A, id, runtimeEvent(0, "in-progress", ""), 200);
        runtime(TestKeys.ORG_A, id, runtimeEvent(1, "ended", "\"endedReason\":\"customer-ended-call\""), 200);
        assertEquals(List.of("end-of-call-report"), Outboxes.types(dataSource, id));
        given().when().get("/call/" + id).then().statusCode(401);
    }
}
