package dev.voiceplane.local;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.patch;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --talk} against the API (WireMock in its place): each key becomes a credential of its own id, an assistant
 * that can talk is created or brought up to date, what is stored is not asked for again, and no key is ever printed.
 * Against the real stack and a browser: WebCallPageIT.
 */
class TalkSetupTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String API_KEY = "api-key-of-the-org";
    private static final Map<String, String> KEYS = Map.of("DEEPGRAM_API_KEY", "dg-secret-1",
            "OPENAI_API_KEY", "sk-secret-2", "ELEVENLABS_API_KEY", "el-secret-3");

    private WireMockServer api;
    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();
    private final List<String> asked = new ArrayList<>();

    @BeforeEach
    void start() {
        api = new WireMockServer(options().dynamicPort().bindAddress("127.0.0.1"));
        api.start();
        api.stubFor(post(urlEqualTo("/credential")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"id\":\"{{jsonPath request.body '$.provider'}}-new\"}").withTransformers("response-template")));
        api.stubFor(delete(urlPathMatching("/credential/.*")).willReturn(aResponse().withStatus(200)));
        api.stubFor(post(urlEqualTo("/assistant")).willReturn(aResponse().withStatus(201)
                .withHeader("Content-Type", "application/json").withBody("{\"id\":\"assistant-new\"}")));
        api.stubFor(patch(urlPathMatching("/assistant/.*")).willReturn(okJson("{\"id\":\"assistant-old\"}")));
        stored("/credential?limit=1000", "[]");
        stored("/assistant?limit=1000", "[]");
    }

    @AfterEach
    void stop() {
        api.stop();
    }

    private void stored(String path, String json) {
        api.stubFor(get(urlEqualTo(path)).withHeader("Authorization", equalTo("Bearer " + API_KEY))
                .willReturn(okJson(json)));
    }

    private String run(Map<String, String> environment, TalkSetup.Prompt prompt) throws Exception {
        return new TalkSetup(URI.create("http://localhost:" + api.port()), API_KEY,
                new PrintStream(printed, true, StandardCharsets.UTF_8)).run(environment, prompt);
    }

    /** Answers {@code answers} in order, recording each question; null when they have run out (no terminal). */
    private TalkSetup.Prompt prompt(String... answers) {
        return question -> {
            asked.add(question);
            return asked.size() <= answers.length ? answers[asked.size() - 1].toCharArray() : null;
        };
    }

    private List<JsonNode> bodies(String method, String path) {
        return api.getAllServeEvents().stream().map(event -> event.getRequest())
                .filter(request -> request.getMethod().getName().equals(method) && request.getUrl().equals(path))
                .sorted(java.util.Comparator.comparing(LoggedRequest::getLoggedDate))
                .map(request -> read(request.getBodyAsString())).toList();
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError(json, e);
        }
    }

    private void assertNoKeyPrinted() {
        String output = printed.toString(StandardCharsets.UTF_8);
        for (String key : List.of("dg-secret-1", "sk-secret-2", "el-secret-3", "typed-dg", "typed-sk", API_KEY)) {
            assertFalse(output.contains(key), "a key was printed: " + output);
        }
    }

    @Test
    void keysFromTheEnvironmentBecomeCredentialsAndTheAssistantTalks() throws Exception {
        String page = run(KEYS, prompt());

        assertEquals("http://localhost:" + api.port() + "/talk?assistantId=assistant-new", page);
        assertEquals(List.of(), asked, "nothing is asked when the environment has it");
        List<JsonNode> credentials = bodies("POST", "/credential");
        assertEquals(List.of("{\"provider\":\"deepgram\",\"name\":\"voiceplane talk\",\"apiKey\":\"dg-secret-1\"}",
                "{\"provider\":\"openai\",\"name\":\"voiceplane talk\",\"apiKey\":\"sk-secret-2\"}",
                "{\"provider\":\"11labs\",\"name\":\"voiceplane talk\",\"apiKey\":\"el-secret-3\"}"),
                credentials.stream().map(JsonNode::toString).toList(), "POST: each credential gets its own id");
        api.verify(0, putRequestedFor(anyUrl()));
        JsonNode assistant = bodies("POST", "/assistant").getFirst();
        assertEquals("voiceplane talk", assistant.path("name").asText());
        assertEquals(TalkSetup.FIRST_MESSAGE, assistant.path("firstMessage").asText());
        assertEquals("deepgram", assistant.path("transcriber").path("provider").asText());
        assertEquals("openai", assistant.path("model").path("provider").asText());
        assertEquals("gpt-4o-mini", assistant.path("model").path("model").asText());
        assertEquals("{\"provider\":\"11labs\",\"voiceId\":\"" + TalkSetup.ELEVENLABS_VOICE + "\"}",
                assistant.path("voice").toString());
        assertEquals("[\"transcript\",\"speech-update\",\"user-interrupted\",\"hang\"]",
                assistant.path("clientMessages").toString());
        api.verify(postRequestedFor(urlEqualTo("/assistant")).withHeader("Authorization", equalTo("Bearer " + API_KEY)));
        String output = printed.toString(StandardCharsets.UTF_8);
        assertTrue(output.contains("talk: deepgram credential deepgram-new created (key from DEEPGRAM_API_KEY)"), output);
        assertNoKeyPrinted();
    }

    @Test
    void withoutAnElevenLabsKeyTheVoiceIsOpenAis() throws Exception {
        run(Map.of("DEEPGRAM_API_KEY", "dg-secret-1", "OPENAI_API_KEY", "sk-secret-2"), prompt(""));

        assertEquals(List.of("ElevenLabs API key (its voice; Enter for an OpenAI voice)"), asked);
        assertEquals(2, bodies("POST", "/credential").size());
        assertEquals("{\"provider\":\"openai\",\"voiceId\":\"" + TalkSetup.OPENAI_VOICE + "\"}",
                bodies("POST", "/assistant").getFirst().path("voice").toString());
    }

    @Test
    void keysAreAskedForInATerminalWhenTheEnvironmentHasNone() throws Exception {
        run(Map.of(), prompt("typed-dg", " typed-sk "));

        assertEquals(List.of("Deepgram API key (the assistant's transcriber)", "OpenAI API key (its model)",
                "ElevenLabs API key (its voice; Enter for an OpenAI voice)"), asked);
        assertEquals(List.of("typed-dg", "typed-sk"), bodies("POST", "/credential").stream()
                .map(body -> body.path("apiKey").asText()).toList());
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("created (key as typed)"));
        assertNoKeyPrinted();
    }

    @Test
    void whatIsStoredIsKeptAndNotAskedForAndTheAssistantIsBroughtUpToDate() throws Exception {
        stored("/credential?limit=1000", "[{\"id\":\"c1\",\"provider\":\"deepgram\",\"name\":\"mine\"},"
                + "{\"id\":\"c2\",\"provider\":\"openai\"},{\"id\":\"c3\",\"provider\":\"11labs\"}]");
        stored("/assistant?limit=1000", "[{\"id\":\"a9\",\"name\":\"other\"},{\"id\":\"assistant-old\","
                + "\"name\":\"voiceplane talk\"}]");

        String page = run(Map.of(), prompt());

        assertEquals(List.of(), asked);
        assertEquals(List.of(), bodies("POST", "/credential"));
        assertEquals(List.of(), bodies("POST", "/assistant"));
        JsonNode patched = bodies("PATCH", "/assistant/assistant-old").getFirst();
        assertEquals("11labs", patched.path("voice").path("provider").asText(), "a stored ElevenLabs key is the voice");
        assertTrue(page.endsWith("/talk?assistantId=assistant-old"), page);
    }

    @Test
    void aKeyGivenAgainReplacesOnlyWhatEarlierRunsCreated() throws Exception {
        stored("/credential?limit=1000", "[{\"id\":\"old\",\"provider\":\"deepgram\",\"name\":\"voiceplane talk\"},"
                + "{\"id\":\"mine\",\"provider\":\"deepgram\",\"name\":\"mine\"},"
                + "{\"id\":\"o1\",\"provider\":\"openai\",\"name\":\"voiceplane talk\"}]");

        run(Map.of("DEEPGRAM_API_KEY", "dg-secret-1"), prompt());

        assertEquals(List.of("deepgram"), bodies("POST", "/credential").stream()
                .map(body -> body.path("provider").asText()).toList());
        api.verify(1, deleteRequestedFor(urlEqualTo("/credential/old")));
        api.verify(0, deleteRequestedFor(urlEqualTo("/credential/mine")));
        api.verify(0, deleteRequestedFor(urlEqualTo("/credential/o1")));
    }

    @Test
    void aMissingKeyWithoutATerminalStopsNamingItsVariable() {
        TalkSetup.Stopped stopped = assertThrows(TalkSetup.Stopped.class,
                () -> run(Map.of("OPENAI_API_KEY", "sk-secret-2"), prompt()));

        assertEquals("no deepgram key: set DEEPGRAM_API_KEY (there is no terminal to ask in), or give the"
                + " organisation a deepgram credential (POST /credential)", stopped.getMessage());
        api.verify(0, postRequestedFor(anyUrl()));
    }

    @Test
    void anAnswerThatIsNotASuccessStopsWithWhatTheApiSaid() {
        api.stubFor(post(urlEqualTo("/assistant")).willReturn(aResponse().withStatus(400)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"message\":[\"voice.voiceId must not be null\"],\"error\":\"Bad Request\",\"statusCode\":400}")));

        TalkSetup.Stopped stopped = assertThrows(TalkSetup.Stopped.class, () -> run(KEYS, prompt()));

        assertEquals("POST /assistant answered 400: [\"voice.voiceId must not be null\"]", stopped.getMessage());
        assertNoKeyPrinted();
    }

    @Test
    void theKeyUsedIsTheFirstThatIsWrittenOut() {
        assertEquals(Optional.of("k2"), TalkSetup.plainKey("a:sha256:0f0f,b:k2,c:k3"));
        assertEquals(Optional.empty(), TalkSetup.plainKey("a:sha256:0f0f"));
    }
}
