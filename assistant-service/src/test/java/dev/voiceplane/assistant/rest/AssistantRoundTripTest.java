package dev.voiceplane.assistant.rest;

import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static dev.voiceplane.assistant.rest.Clients.tree;
import static dev.voiceplane.assistant.rest.Clients.withoutSecrets;
import static dev.voiceplane.assistant.rest.Clients.written;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.faulttolerance.api.CircuitBreakerMaintenance;
import jakarta.inject.Inject;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a client writes is what it reads back: every field, free-form JSON and numbers exactly, nothing invented. */
@QuarkusTest
class AssistantRoundTripTest {

    private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    @InjectWireMock
    WireMockServer fileService;

    @Inject
    CircuitBreakerMaintenance breakers;

    @BeforeEach
    void closeCircuit() {
        FileServiceStub.closeCircuit(breakers);
    }

    @Test
    void aMaximalAssistantComesBackIdentical() {
        String fileA = newId();
        String fileB = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(fileA, fileB), List.of(fileA, fileB));
        String body = Bodies.maximalAssistant(fileA, fileB);
        JsonNode sent = tree(body);
        assertEveryDocumentedFieldIsSet(sent);

        JsonNode created = tree(orgA().body(body).when().post("/assistant").then().statusCode(201)
                .body("id", matchesPattern("[0-9a-f-]{36}"))
                .body("orgId", equalTo(TestKeys.ORG_A))
                .body("createdAt", matchesPattern(TIMESTAMP))
                .body("updatedAt", matchesPattern(TIMESTAMP)));
        // Everything but the webhook secrets, which are write-only (the services that use them read them internally).
        assertEquals(withoutSecrets(sent), written(created));

        String id = created.get("id").asText();
        JsonNode fetched = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        assertEquals(created, fetched);
        assertEquals(withoutSecrets(sent), written(fetched));
        assertEquals(sent, written(tree(dev.voiceplane.kit.testing.TestClients.internal(TestKeys.ORG_A)
                .when().get("/internal/assistant/" + id).then().statusCode(200))));

        JsonNode listed = tree(orgA().queryParam("createdAtGe", created.get("createdAt").asText())
                .queryParam("limit", 1000).when().get("/assistant").then().statusCode(200));
        JsonNode entry = null;
        for (JsonNode item : listed) {
            if (item.get("id").asText().equals(id)) {
                entry = item;
            }
        }
        assertEquals(created, entry);
    }

    @Test
    void freeFormJsonIsKeptExactly() {
        String metadata = """
                {"decimal": 1.50, "tiny": 0.30000000000000000001, "huge": 123456789012345678901234567890,
                 "negative": -0.0, "integer": 7, "exponentFree": 100.000, "nothing": null, "yes": true,
                 "text": "Grüße \\u2603 \\"quoted\\"", "empty": {}, "list": [], "mixed": [1, "two", null, [3.10], {"k": false}],
                 "deep": {"a": {"b": {"c": {"d": [0.1, 0.2]}}}}}
                """;
        String body = "{\"metadata\":" + metadata + ","
                + "\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"tools\":[{\"type\":\"function\","
                + "\"messages\":[{\"type\":\"request-complete\",\"conditions\":["
                + "{\"param\":\"a\",\"value\":{\"nested\":[1,2.25,null]},\"operator\":\"eq\"},"
                + "{\"param\":\"b\",\"value\":null,\"operator\":\"neq\"},"
                + "{\"param\":\"c\",\"value\":[\"x\",1.0],\"operator\":\"lt\"},"
                + "{\"param\":\"d\",\"value\":false,\"operator\":\"lte\"},"
                + "{\"param\":\"e\",\"value\":12.000,\"operator\":\"gt\"}]}],"
                + "\"function\":{\"name\":\"lookup\",\"parameters\":{\"type\":\"object\",\"properties\":"
                + "{\"when\":{\"type\":\"string\",\"format\":\"date\",\"examples\":[\"2024-06-01\"],\"x-anything\":{\"deep\":[1.10]}}}}}}]},"
                + "\"analysisPlan\":{\"structuredDataSchema\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
                + "\"properties\":{\"score\":{\"type\":\"number\",\"multipleOf\":0.50}}},\"properties\":{}}}}";
        JsonNode sent = tree(body);
        JsonNode created = tree(orgA().body(body).when().post("/assistant").then().statusCode(201));
        assertEquals(sent, written(created));
        JsonNode fetched = tree(orgA().when().get("/assistant/" + created.get("id").asText()).then().statusCode(200));
        assertEquals(sent, written(fetched));
        // Numbers keep the way they were written, not only their value.
        assertEquals("1.50", fetched.at("/metadata/decimal").decimalValue().toPlainString());
        assertEquals("0.30000000000000000001", fetched.at("/metadata/tiny").decimalValue().toPlainString());
        assertEquals("123456789012345678901234567890", fetched.at("/metadata/huge").bigIntegerValue().toString());
        assertTrue(fetched.at("/metadata/nothing").isNull());
    }

    @Test
    void anEmptyAssistantIsValidAndNothingIsInvented() {
        JsonNode created = tree(orgA().body("{}").when().post("/assistant").then().statusCode(201));
        Set<String> fields = new TreeSet<>();
        created.fieldNames().forEachRemaining(fields::add);
        assertEquals(Set.of("createdAt", "id", "orgId", "updatedAt"), fields);
        assertEquals(created.get("createdAt"), created.get("updatedAt"));
        JsonNode fetched = tree(orgA().when().get("/assistant/" + created.get("id").asText()).then().statusCode(200));
        assertEquals(created, fetched);
    }

    @Test
    void unsetNestedFieldsAreOmittedAndEmptyValuesKept() {
        String body = "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"messages\":[]},\"clientMessages\":[],"
                + "\"metadata\":{},\"name\":\"\",\"voice\":{\"provider\":\"azure\",\"voiceId\":\"v\",\"inputPunctuationBoundaries\":[]}}";
        JsonNode created = tree(orgA().body(body).when().post("/assistant").then().statusCode(201));
        assertEquals(tree(body), written(created));
    }

    @Test
    void neutralProviderWordsAreAcceptedAndEchoedAsSent() {
        String fileId = newId();
        FileServiceStub.answer(fileService, TestKeys.ORG_A, List.of(fileId), List.of(fileId));
        String body = "{\"transcriber\":{\"provider\":\"transcriberA\"},"
                + "\"model\":{\"provider\":\"llmA\",\"model\":\"gpt-4o\",\"fallbackModels\":[\"gpt-4\"],\"numFastTurns\":2,"
                + "\"semanticCachingEnabled\":false,\"knowledgeBase\":{\"provider\":\"kbA\",\"fileIds\":[\"" + fileId + "\"]}},"
                + "\"voice\":{\"provider\":\"voiceA\",\"voiceId\":\"en-US-JennyNeural\"},"
                + "\"voicemailDetection\":{\"provider\":\"carrierA\"}}";
        JsonNode created = tree(orgA().body(body).when().post("/assistant").then().statusCode(201)
                .body("transcriber.provider", equalTo("transcriberA"))
                .body("model.provider", equalTo("llmA"))
                .body("model.knowledgeBase.provider", equalTo("kbA"))
                .body("voice.provider", equalTo("voiceA"))
                .body("voicemailDetection.provider", equalTo("carrierA")));
        assertEquals(tree(body), written(created));
    }

    /**
     * Guards the maximal body itself: every field documented for an assistant (docs/assistants-and-squads.md) is in it.
     */
    private static void assertEveryDocumentedFieldIsSet(JsonNode sent) {
        List<String> documented = List.of(
                "/transcriber/provider", "/transcriber/model", "/transcriber/language", "/transcriber/smartFormat",
                "/transcriber/keywords/0",
                "/model/messages/0/content", "/model/messages/0/role",
                "/model/tools/0/async", "/model/tools/0/type",
                "/model/tools/0/messages/0/type", "/model/tools/0/messages/0/content",
                "/model/tools/0/messages/0/conditions/0/param", "/model/tools/0/messages/0/conditions/0/value",
                "/model/tools/0/messages/0/conditions/0/operator",
                "/model/tools/0/destinations/0/type", "/model/tools/0/destinations/0/assistantName",
                "/model/tools/0/destinations/0/message", "/model/tools/0/destinations/0/description",
                "/model/tools/0/function/name", "/model/tools/0/function/description",
                "/model/tools/0/function/parameters/type", "/model/tools/0/function/parameters/properties",
                "/model/tools/0/function/parameters/required/0",
                "/model/tools/0/server/url", "/model/tools/0/server/secret",
                "/model/toolIds/0", "/model/provider", "/model/model", "/model/fallbackModels/0",
                "/model/semanticCachingEnabled", "/model/numFastTurns", "/model/temperature",
                "/model/knowledgeBase/provider", "/model/knowledgeBase/topK", "/model/knowledgeBase/fileIds/0",
                "/model/maxTokens", "/model/emotionRecognitionEnabled",
                "/voice/inputPreprocessingEnabled", "/voice/inputMinCharacters", "/voice/inputPunctuationBoundaries/0",
                "/voice/fillerInjectionEnabled", "/voice/provider", "/voice/voiceId", "/voice/speed",
                "/firstMessageMode", "/recordingEnabled", "/hipaaEnabled", "/clientMessages/0", "/serverMessages/0",
                "/silenceTimeoutSeconds", "/responseDelaySeconds", "/llmRequestDelaySeconds",
                "/numWordsToInterruptAssistant", "/maxDurationSeconds", "/backgroundSound", "/backchannelingEnabled",
                "/name", "/firstMessage",
                "/voicemailDetection/provider", "/voicemailDetection/voicemailDetectionTypes/0",
                "/voicemailDetection/enabled", "/voicemailDetection/machineDetectionTimeout",
                "/voicemailDetection/machineDetectionSpeechThreshold",
                "/voicemailDetection/machineDetectionSpeechEndThreshold",
                "/voicemailDetection/machineDetectionSilenceTimeout",
                "/voicemailMessage", "/endCallMessage", "/endCallPhrases/0", "/metadata", "/serverUrl", "/serverUrlSecret",
                "/analysisPlan/summaryPrompt", "/analysisPlan/successEvaluationPrompt",
                "/analysisPlan/successEvaluationRubric", "/analysisPlan/structuredDataPrompt",
                "/analysisPlan/structuredDataSchema/type", "/analysisPlan/structuredDataSchema/items",
                "/analysisPlan/structuredDataSchema/properties", "/analysisPlan/structuredDataSchema/description",
                "/analysisPlan/structuredDataSchema/required/0");
        for (String pointer : documented) {
            assertTrue(!sent.at(pointer).isMissingNode(), "the maximal assistant lacks " + pointer);
        }
        // An Assistant has 25 fields besides the returned-only ones (docs/assistants-and-squads.md): all, nothing else.
        assertEquals(25, count(sent.fieldNames()));
    }

    private static int count(Iterator<String> names) {
        int n = 0;
        while (names.hasNext()) {
            names.next();
            n++;
        }
        return n;
    }
}
