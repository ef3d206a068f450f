package dev.voiceplane.runtime.media;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.voiceplane.kit.testing.Eventually;
import dev.voiceplane.kit.testing.InjectWireMock;
import dev.voiceplane.kit.testing.TestKeys;
import dev.voiceplane.runtime.AssistantJson;
import dev.voiceplane.runtime.FakeProviders;
import dev.voiceplane.runtime.fake.FakeOpenAi;
import dev.voiceplane.runtime.fake.FakeTwilioCaller;
import dev.voiceplane.runtime.fake.SpeechFixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code model.knowledgeBase}: each caller turn searches the files (file-service, WireMock here) with the caller's
 * words, and the model's request for that turn carries the passages found, as a system message just before the
 * caller's; a search that fails or outlasts its deadline answers the turn without them, never a dead line.
 */
@QuarkusTest
class KnowledgeBaseTest {

    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String FILE = "0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
    private static final String HOURS = "The Harbour Cafe opens at nine in the morning and at ten on Sundays.";
    private static final String PARKING = "There is free parking behind the building for customers.";

    @InjectWireMock
    WireMockServer wireMock;

    private static String assistant() {
        return AssistantJson.onFakes().model(AssistantJson.cafeModel(
                        ",\"knowledgeBase\":{\"provider\":\"canonical\",\"topK\":2,\"fileIds\":[\"" + FILE + "\"]}"))
                .with(",\"firstMessageMode\":\"assistant-waits-for-user\"").json();
    }

    /** file-service's answer for the caller's {@code words} in {@code org}. */
    private void searchFinds(String org, String words, String... passages) {
        JsonArray found = new JsonArray();
        for (String passage : passages) {
            found.add(new JsonObject().put("fileId", FILE).put("text", passage).put("score", 0.5));
        }
        wireMock.stubFor(post(urlEqualTo("/internal/file/search")).withHeader("X-Voice-Org-Id", equalTo(org))
                .withRequestBody(equalToJson(new JsonObject().put("fileIds", new JsonArray().add(FILE))
                        .put("query", words).put("topK", 2).encode()))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody(new JsonObject().put("passages", found).encode())));
    }

    private static double searches(String result) {
        String prefix = "voice_runtime_knowledge_searches_total{result=\"" + result + "\"}";
        for (String line : RestAssured.get("/q/metrics").asString().split("\n")) {
            if (line.startsWith(prefix)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    /** The model's requests whose last message is the caller's {@code words}. */
    private static JsonArray requestFor(String words) {
        return Eventually.value("the model's request for \"" + words + "\"", () -> FakeProviders.openai().requests()
                .stream().filter(request -> words.equals(FakeOpenAi.lastUserMessage(request)))
                .map(request -> request.getJsonArray("messages")).findFirst().orElse(null), found -> found != null);
    }

    private static boolean carries(JsonArray messages, String passage) {
        return messages.stream().map(JsonObject.class::cast)
                .anyMatch(message -> message.getString("content", "").contains(passage));
    }

    @Test
    void theModelsRequestForATurnCarriesThePassagesMatchingTheCallersWords() {
        StubbedCalls calls = new StubbedCalls(wireMock);
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant());
        String question = "What time do you open on Sunday?";
        String second = "Can I park there?";
        searchFinds(org, question, HOURS);
        searchFinds(org, second, PARKING);
        FakeProviders.deepgram().script(question, second);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text(
                FakeOpenAi.lastUserMessage(request).startsWith("What") ? "We open at ten on Sundays." : "Yes, behind us."));

        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question)).voiceToVoiceMs(BOUND);
            JsonArray first = requestFor(question);
            JsonObject passages = first.getJsonObject(first.size() - 2);
            assertEquals("system", passages.getString("role"), first.encode());
            assertTrue(passages.getString("content").contains(HOURS), passages.encode());
            assertEquals("You answer for a cafe.", first.getJsonObject(0).getString("content"), "the prompt stays first");
            assertEquals(question, first.getJsonObject(first.size() - 1).getString("content"));

            Eventually.until("the reply to finish", BOUND, () -> calls.transcript(callId).size() == 2);
            caller.say(SpeechFixtures.mulaw8k(second)).voiceToVoiceMs(BOUND);
            JsonArray next = requestFor(second);
            assertTrue(carries(next, PARKING), "the second turn carries its own passage: " + next.encode());
            assertFalse(carries(next, HOURS), "an earlier turn's passages are not kept: " + next.encode());
        }
        wireMock.verify(postRequestedFor(urlEqualTo("/internal/file/search"))
                .withHeader("Authorization", equalTo(TestKeys.bearer(TestKeys.INTERNAL_TOKEN)))
                .withHeader("X-Voice-Org-Id", equalTo(org))
                .withRequestBody(matchingJsonPath("$.query", equalTo(question))));
    }

    @Test
    void aFailingSearchAnswersTheTurnWithoutPassages() {
        StubbedCalls calls = new StubbedCalls(wireMock);
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant());
        String question = "Do you sell gift cards?";
        wireMock.stubFor(post(urlEqualTo("/internal/file/search")).withHeader("X-Voice-Org-Id", equalTo(org))
                .willReturn(aResponse().withStatus(500).withHeader("Content-Type", "application/json")
                        .withBody("{\"message\":\"boom\",\"error\":\"Internal Server Error\",\"statusCode\":500}")));
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("Yes, at the counter."));
        double failedBefore = searches("failed");
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question)).voiceToVoiceMs(BOUND);
        }
        JsonArray messages = requestFor(question);
        assertEquals(2, messages.size(), "the prompt and the caller's words, no passages: " + messages.encode());
        assertTrue(searches("failed") > failedBefore, "the failed search is counted");
    }

    @Test
    void aSearchSlowerThanItsDeadlineAnswersTheTurnWithoutPassages() {
        StubbedCalls calls = new StubbedCalls(wireMock);
        UUID callId = UUID.randomUUID();
        String org = calls.call(callId, assistant());
        String question = "Is the terrace open?";
        wireMock.stubFor(post(urlEqualTo("/internal/file/search")).withHeader("X-Voice-Org-Id", equalTo(org))
                .willReturn(aResponse().withFixedDelay(8_000).withHeader("Content-Type", "application/json")
                        .withBody("{\"passages\":[{\"fileId\":\"" + FILE + "\",\"text\":\"too late\",\"score\":1}]}")));
        FakeProviders.deepgram().script(question);
        FakeProviders.openai().script(request -> new FakeOpenAi.Text("It is, in summer."));
        double timedOutBefore = searches("timeout");
        try (FakeTwilioCaller caller = calls.phoneCall(null, callId, org)) {
            caller.say(SpeechFixtures.mulaw8k(question)).voiceToVoiceMs(BOUND);
        }
        JsonArray messages = requestFor(question);
        assertFalse(carries(messages, "too late"), messages.encode());
        assertEquals(2, messages.size(), messages.encode());
        assertTrue(searches("timeout") > timedOutBefore, "the slow search is counted");
    }
}
