package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Clients.tree;
import static dev.voiceplane.assistant.rest.Clients.withoutSecrets;
import static dev.voiceplane.assistant.rest.Clients.written;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.contracts.catalog.SdkValues;
import dev.voiceplane.kit.testing.TestClients;
import dev.voiceplane.kit.testing.TestDatabase;
import dev.voiceplane.kit.testing.TestKeys;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * docs/assistants-and-squads.md "Provider settings": today's transcribers, models and voices, with the settings the
 * published SDK gives each, are accepted and read back exactly (public answer, list, internal route); a setting of
 * another provider, a value outside the SDK's, a missing required setting is a 400 naming the field.
 */
@QuarkusTest
class ProviderSettingsTest {

    @Inject
    AgroalDataSource dataSource;

    // ---- accepted and read back ---------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            """
            {"provider": "azure", "voiceId": "en-US-AvaMultilingualNeural", "speed": 1.10, "cachingEnabled": false}""",
            """
            {"provider": "cartesia", "voiceId": "a0e99841-438c-4a64-b679-ae501e7d6091", "model": "sonic-2",
             "language": "de", "experimentalControls": {"speed": "fast", "emotion": "positivity:high"},
             "generationConfig": {"speed": 1.10, "volume": 0.9, "experimental": {"accentLocalization": 1}},
             "pronunciationDictId": "dict_0190", "cachingEnabled": true}""",
            """
            {"provider": "cartesia", "voiceId": "a0e99841-438c-4a64-b679-ae501e7d6091", "model": "sonic-3",
             "experimentalControls": {"speed": -0.50}}""",
            """
            {"provider": "deepgram", "voiceId": "thalia", "model": "aura-2", "mipOptOut": true}""",
            """
            {"provider": "11labs", "voiceId": "21m00Tcm4TlvDq8ikWAM", "model": "eleven_flash_v2_5", "language": "de",
             "stability": 0.5, "similarityBoost": 0.75, "style": 0, "useSpeakerBoost": true, "speed": 1.0,
             "optimizeStreamingLatency": 3, "enableSsmlParsing": false, "autoMode": true}""",
            """
            {"provider": "openai", "voiceId": "alloy", "model": "gpt-4o-mini-tts", "instructions": "Speak warmly.",
             "speed": 1.25}""",
            """
            {"provider": "openai", "voiceId": "af_heart", "model": "kokoro"}""",
            """
            {"provider": "lmnt", "voiceId": "lily", "language": "en", "speed": 1.2}""",
            """
            {"provider": "rime-ai", "voiceId": "cove", "model": "mistv2", "language": "es", "speed": 0.9,
             "pauseBetweenBrackets": true, "phonemizeBetweenBrackets": false, "reduceLatency": true,
             "inlineSpeedAlpha": "0.8, 1.2"}""",
            """
            {"provider": "rime-ai", "voiceId": "luna", "model": "arcana"}""",
            """
            {"provider": "custom-voice", "server": {"url": "https://tts.example.com/synthesize",
             "secret": "voice-secret", "headers": {"X-Team": "voice"}, "timeoutSeconds": 10}}""",
            """
            {"provider": "sesame", "voiceId": "maya", "model": "csm-1b"}""",
            """
            {"provider": "neets", "voiceId": "vits", "inputMinCharacters": 10, "fillerInjectionEnabled": false}"""})
    void voicesAreReadBackAsWritten(String voice) {
        assertReadBack("{\"voice\":" + voice + "}");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            """
            {"provider": "assembly-ai", "language": "en", "speechModel": "universal-streaming-english",
             "confidenceThreshold": 0.4, "formatTurns": true, "endOfTurnConfidenceThreshold": 0.7,
             "minEndOfTurnSilenceWhenConfident": 160, "wordFinalizationMaxWaitTime": 300, "maxTurnSilence": 400,
             "vadAssistedEndpointingEnabled": true, "wordBoost": ["Zahnarzt"], "keytermsPrompt": ["Invisalign"],
             "endUtteranceSilenceThreshold": 500, "disablePartialTranscripts": false}""",
            """
            {"provider": "azure", "language": "de-CH", "segmentationStrategy": "Semantic",
             "segmentationSilenceTimeoutMs": 500, "segmentationMaximumTimeMs": 20000}""",
            """
            {"provider": "deepgram", "model": "flux-general-en", "language": "en", "eotThreshold": 0.7,
             "eagerEotThreshold": 0.5, "eotTimeoutMs": 5000, "keyterm": ["Alpine Dental"], "numerals": true,
             "profanityFilter": false, "mipOptOut": true, "confidenceThreshold": 0.4, "endpointing": 300,
             "smartFormat": true, "keywords": ["Zahnarzt:2"]}""",
            """
            {"provider": "11labs", "model": "scribe_v2_realtime", "language": "de", "silenceThresholdSeconds": 0.5,
             "confidenceThreshold": 0.4, "minSpeechDurationMs": 100, "minSilenceDurationMs": 100}""",
            """
            {"provider": "gladia", "model": "solaria-1", "language": "fr-FR", "languageBehaviour": "manual",
             "languages": "fr", "transcriptionHint": "Alpine Dental", "prosody": false, "audioEnhancer": true,
             "confidenceThreshold": 0.4, "endpointing": 0.3, "speechThreshold": 0.6, "region": "eu-west",
             "receivePartialTranscripts": true, "smartFormat": false}""",
            """
            {"provider": "google", "model": "gemini-2.0-flash", "language": "German"}""",
            """
            {"provider": "openai", "model": "gpt-4o-transcribe", "language": "de"}""",
            """
            {"provider": "openai", "model": "Systran/faster-whisper-small"}""",
            """
            {"provider": "speechmatics", "model": "default", "language": "de", "operatingPoint": "enhanced",
             "region": "eu", "enableDiarization": false, "maxDelay": 1.5,
             "customVocabulary": [{"content": "Invisalign", "soundsLike": ["in visa line"]}, {"content": "Zahnarzt"}],
             "numeralStyle": "written", "endOfTurnSensitivity": 0.5, "removeDisfluencies": true,
             "minimumSpeechDuration": 0.2}""",
            """
            {"provider": "soniox", "model": "stt-rt-v4", "language": "de", "languageHintsStrict": true,
             "maxEndpointDelayMs": 800, "customVocabulary": ["Invisalign", "Zahnarzt"]}""",
            """
            {"provider": "cartesia", "model": "ink-whisper", "language": "de"}""",
            """
            {"provider": "talkscriber", "model": "whisper", "language": "en"}""",
            """
            {"provider": "custom-transcriber", "server": {"url": "wss://stt.example.com/transcribe",
             "secret": "transcriber-secret", "headers": {"X-Team": "speech"}, "timeoutSeconds": 30}}"""})
    void transcribersAreReadBackAsWritten(String transcriber) {
        assertReadBack("{\"transcriber\":" + transcriber + "}");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            """
            {"provider": "google", "model": "gemini-2.5-flash", "temperature": 0.3, "maxTokens": 250}""",
            """
            {"provider": "xai", "model": "grok-4-fast-non-reasoning"}""",
            """
            {"provider": "cerebras", "model": "llama-3.3-70b"}""",
            """
            {"provider": "deep-seek", "model": "deepseek-chat"}""",
            """
            {"provider": "azure-openai", "model": "gpt-4o-2024-08-06"}""",
            """
            {"provider": "anthropic", "model": "claude-sonnet-4-5-20250929", "thinking": {"type": "enabled",
             "budgetTokens": 2048}}""",
            """
            {"provider": "anthropic-bedrock", "model": "claude-3-7-sonnet-20250219"}""",
            """
            {"provider": "minimax", "model": "MiniMax-Text-01"}""",
            """
            {"provider": "inflection-ai", "model": "inflection_3_pi"}""",
            """
            {"provider": "groq", "model": "a-model-released-tomorrow"}"""})
    void modelsAreReadBackWithTheModelAsSent(String model) {
        assertReadBack("{\"model\":" + model + "}");
    }

    @Test
    void settingsSurviveAPatchOfAnotherFieldAndAPatchReplacesThem() {
        String voice = "{\"provider\":\"cartesia\",\"voiceId\":\"v1\",\"model\":\"sonic-2\",\"language\":\"fr\"}";
        String id = orgA().body("{\"voice\":" + voice + "}").when().post("/assistant").then().statusCode(201)
                .extract().path("id");
        assertEquals(tree(voice), tree(orgA().body("{\"name\":\"renamed\"}").when().patch("/assistant/" + id)
                .then().statusCode(200)).get("voice"));
        String replaced = "{\"provider\":\"rime-ai\",\"voiceId\":\"cove\",\"model\":\"arcana\"}";
        assertEquals(tree(replaced), tree(orgA().body("{\"voice\":" + replaced + "}").when()
                .patch("/assistant/" + id).then().statusCode(200)).get("voice"));
        // A PATCH that leaves the stored voice unfit for its new provider is refused and changes nothing.
        orgA().body("{\"voice\":{\"provider\":\"azure\",\"voiceId\":\"v\",\"model\":\"arcana\"}}").when()
                .patch("/assistant/" + id).then().statusCode(400)
                .body("message", contains("voice.model is only supported by 11labs, cartesia, deepgram, hume, inworld,"
                        + " minimax, neuphonic, openai, playht, rime-ai, sesame, smallest-ai, wellsaid voices"));
        assertEquals(tree(replaced), tree(orgA().when().get("/assistant/" + id).then().statusCode(200)).get("voice"));
    }

    @Test
    void customServersSecretsAreWriteOnlyAndStoredSealed() throws Exception {
        String voiceSecret = "voice-secret-" + UUID.randomUUID();
        String transcriberSecret = "transcriber-secret-" + UUID.randomUUID();
        String body = "{\"voice\":{\"provider\":\"custom-voice\",\"server\":{\"url\":\"https://tts.example.com/s\","
                + "\"secret\":\"" + voiceSecret + "\"}},\"transcriber\":{\"provider\":\"custom-transcriber\","
                + "\"server\":{\"url\":\"wss://stt.example.com/t\",\"secret\":\"" + transcriberSecret + "\"}}}";
        String created = orgA().body(body).when().post("/assistant").then().statusCode(201)
                .body("voice.server.url", equalTo("https://tts.example.com/s"))
                .body("transcriber.server.url", equalTo("wss://stt.example.com/t"))
                .extract().asString();
        String id = tree(created).get("id").asText();
        for (String answer : List.of(created,
                orgA().when().get("/assistant/" + id).then().statusCode(200).extract().asString(),
                orgA().queryParam("limit", 1000).when().get("/assistant").then().statusCode(200).extract().asString())) {
            assertFalse(answer.contains(voiceSecret), answer);
            assertFalse(answer.contains(transcriberSecret), answer);
        }
        TestClients.internal(TestKeys.ORG_A).when().get("/internal/assistant/" + id).then().statusCode(200)
                .body("voice.server.secret", equalTo(voiceSecret))
                .body("transcriber.server.secret", equalTo(transcriberSecret));
        for (String secret : List.of(voiceSecret, transcriberSecret)) {
            assertEquals(0, TestDatabase.count(dataSource,
                    "select count(*) from assistant.assistants where document::text like ?", "%" + secret + "%"),
                    "a custom server's secret is stored in clear");
        }
    }

    // ---- refused, naming the field ------------------------------------------------------------------------------

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            // a setting of another provider
            "{\"voice\":{\"provider\":\"azure\",\"voiceId\":\"v\",\"model\":\"sonic-2\"}}| voice.model is only supported by 11labs, cartesia, deepgram, hume, inworld, minimax, neuphonic, openai, playht, rime-ai, sesame, smallest-ai, wellsaid voices",
            "{\"voice\":{\"provider\":\"voiceA\",\"voiceId\":\"v\",\"stability\":0.5}}| voice.stability is only supported by 11labs voices",
            "{\"voice\":{\"provider\":\"deepgram\",\"voiceId\":\"thalia\",\"experimentalControls\":{\"speed\":\"fast\"}}}| voice.experimentalControls is only supported by cartesia voices",
            "{\"voice\":{\"provider\":\"azure\",\"voiceId\":\"v\",\"server\":{\"url\":\"https://tts.example.com\"}}}| voice.server is only supported by custom-voice voices",
            "{\"transcriber\":{\"provider\":\"assembly-ai\",\"model\":\"nova-2\"}}| transcriber.model is only supported by 11labs, cartesia, deepgram, gladia, google, openai, soniox, speechmatics, talkscriber transcribers",
            "{\"transcriber\":{\"provider\":\"azure\",\"smartFormat\":true}}| transcriber.smartFormat is only supported by deepgram, gladia, talkscriber transcribers",
            "{\"transcriber\":{\"provider\":\"deepgram\",\"speechModel\":\"universal-streaming-english\"}}| transcriber.speechModel is only supported by assembly-ai transcribers",
            "{\"transcriber\":{\"provider\":\"transcriberA\",\"customVocabulary\":[\"x\"]}}| transcriber.customVocabulary is only supported by soniox, speechmatics transcribers",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"thinking\":{\"type\":\"enabled\",\"budgetTokens\":2048}}}| model.thinking is only supported by anthropic, anthropic-bedrock models",
            // required by the provider
            "{\"voice\":{\"provider\":\"custom-voice\"}}| voice.server should not be null or undefined",
            "{\"voice\":{\"provider\":\"sesame\",\"voiceId\":\"maya\"}}| voice.model should not be null or undefined",
            "{\"voice\":{\"provider\":\"cartesia\"}}| voice.voiceId should not be null or undefined",
            "{\"transcriber\":{\"provider\":\"custom-transcriber\"}}| transcriber.server should not be null or undefined",
            "{\"transcriber\":{\"provider\":\"openai\",\"language\":\"de\"}}| transcriber.model should not be null or undefined",
            "{\"transcriber\":{\"provider\":\"custom-transcriber\",\"server\":{}}}| transcriber.server.url should not be null or undefined",
            "{\"model\":{\"provider\":\"anthropic\",\"model\":\"claude\",\"thinking\":{\"type\":\"enabled\"}}}| model.thinking.budgetTokens should not be null or undefined",
            // values and ranges of the SDK
            "{\"voice\":{\"provider\":\"deepgram\",\"voiceId\":\"thalia\",\"model\":\"aura-3\"}}| voice.model must be one of the following values: aura, aura-2",
            "{\"voice\":{\"provider\":\"rime-ai\",\"voiceId\":\"cove\",\"model\":\"mist-v2\"}}| voice.model must be one of the following values: arcana, mistv2, mist",
            "{\"voice\":{\"provider\":\"rime-ai\",\"voiceId\":\"cove\",\"language\":\"it\"}}| voice.language must be one of the following values: en, es, de, fr, ar, hi, ja, he, pt, ta, si",
            "{\"voice\":{\"provider\":\"cartesia\",\"voiceId\":\"v\",\"experimentalControls\":{\"speed\":\"quick\"}}}| voice.experimentalControls.speed must be one of the following values: slowest, slow, normal, fast, fastest, or a number",
            "{\"voice\":{\"provider\":\"cartesia\",\"voiceId\":\"v\",\"experimentalControls\":{\"speed\":true}}}| voice.experimentalControls.speed must be a string or a number",
            "{\"voice\":{\"provider\":\"cartesia\",\"voiceId\":\"v\",\"generationConfig\":{\"experimental\":{\"accentLocalization\":0.5}}}}| voice.generationConfig.experimental.accentLocalization must be one of the following values: 0, 1",
            "{\"voice\":{\"provider\":\"custom-voice\",\"server\":{\"url\":\"wss://tts.example.com\"}}}| voice.server.url must be a URL address",
            "{\"transcriber\":{\"provider\":\"assembly-ai\",\"speechModel\":\"best\"}}| transcriber.speechModel must be one of the following values: universal-streaming-english, universal-streaming-multilingual",
            "{\"transcriber\":{\"provider\":\"assembly-ai\",\"language\":\"de\"}}| transcriber.language must be one of the following values: multi, en",
            "{\"transcriber\":{\"provider\":\"assembly-ai\",\"endOfTurnConfidenceThreshold\":1.5}}| transcriber.endOfTurnConfidenceThreshold must not be greater than 1",
            "{\"transcriber\":{\"provider\":\"azure\",\"segmentationStrategy\":\"semantic\"}}| transcriber.segmentationStrategy must be one of the following values: Default, Time, Semantic",
            "{\"transcriber\":{\"provider\":\"11labs\",\"confidenceThreshold\":0.95}}| transcriber.confidenceThreshold must not be greater than 0.9",
            "{\"transcriber\":{\"provider\":\"11labs\",\"silenceThresholdSeconds\":0.2}}| transcriber.silenceThresholdSeconds must not be less than 0.3",
            "{\"transcriber\":{\"provider\":\"soniox\",\"maxEndpointDelayMs\":100}}| transcriber.maxEndpointDelayMs must not be less than 500",
            "{\"transcriber\":{\"provider\":\"soniox\",\"customVocabulary\":[{\"content\":\"x\"}]}}| transcriber.customVocabulary.0 must be a string",
            "{\"transcriber\":{\"provider\":\"speechmatics\",\"customVocabulary\":[\"x\"]}}| transcriber.customVocabulary.0 must be an object",
            "{\"transcriber\":{\"provider\":\"speechmatics\",\"customVocabulary\":[{\"soundsLike\":[\"x\"]}]}}| transcriber.customVocabulary.0.content should not be null or undefined",
            "{\"transcriber\":{\"provider\":\"speechmatics\",\"customVocabulary\":[{\"content\":\"x\",\"weight\":2}]}}| transcriber.customVocabulary.0.property weight should not exist",
            "{\"transcriber\":{\"provider\":\"speechmatics\",\"customVocabulary\":[{\"content\":\"x\",\"soundsLike\":[1]}]}}| transcriber.customVocabulary.0.soundsLike.0 must be a string",
            "{\"transcriber\":{\"provider\":\"speechmatics\",\"customVocabulary\":[null]}}| transcriber.customVocabulary.0 should not be null or undefined",
            "{\"transcriber\":{\"provider\":\"speechmatics\",\"region\":\"us-west\"}}| transcriber.region must be one of the following values: eu, us",
            "{\"transcriber\":{\"provider\":\"custom-transcriber\",\"server\":{\"url\":\"ftp://stt.example.com\"}}}| transcriber.server.url must be a ws, wss, http or https URL address",
            "{\"model\":{\"provider\":\"anthropic\",\"model\":\"claude\",\"thinking\":{\"type\":\"enabled\",\"budgetTokens\":512}}}| model.thinking.budgetTokens must not be less than 1024",
            "{\"model\":{\"provider\":\"anthropic\",\"model\":\"claude\",\"thinking\":{\"type\":\"adaptive\",\"budgetTokens\":2048}}}| model.thinking.type must be one of the following values: enabled"})
    void settingsThatDoNotFitTheProviderAreRefusedNamingTheField(String body, String message) {
        orgA().body(body).when().post("/assistant").then().statusCode(400)
                .body("statusCode", equalTo(400))
                .body("error", equalTo("Bad Request"))
                .body("message", contains(message.strip()));
    }

    @Test
    void assemblyAiTakesAtMostAHundredKeytermsOfFiftyCharacters() {
        String hundredAndOne = java.util.stream.IntStream.range(0, 101).mapToObj(i -> "\"term" + i + "\"")
                .collect(Collectors.joining(",", "[", "]"));
        orgA().body("{\"transcriber\":{\"provider\":\"assembly-ai\",\"keytermsPrompt\":" + hundredAndOne + "}}")
                .when().post("/assistant").then().statusCode(400)
                .body("message", contains("transcriber.keytermsPrompt must contain no more than 100 elements"));
        orgA().body("{\"transcriber\":{\"provider\":\"assembly-ai\",\"keytermsPrompt\":[\"" + "k".repeat(51) + "\"]}}")
                .when().post("/assistant").then().statusCode(400)
                .body("message", contains("transcriber.keytermsPrompt.0 must be shorter than or equal to 50 characters"));
    }

    @Test
    void everyProblemIsListedAtOnceInsideSquadsToo() {
        orgA().body("{\"members\":[{\"assistant\":{\"voice\":{\"provider\":\"lmnt\",\"voiceId\":\"lily\",\"language\":\"xx\","
                        + "\"model\":\"m\"},\"transcriber\":{\"provider\":\"google\",\"model\":\"gemini-9\"}}}]}")
                .when().post("/squad").then().statusCode(400)
                .body("message", containsInAnyOrder(
                        "members.0.assistant.voice.language must be one of the following values: "
                                + String.join(", ", SdkValues.LMNT_VOICE_LANGUAGE),
                        "members.0.assistant.voice.model is only supported by 11labs, cartesia, deepgram, hume, inworld,"
                                + " minimax, neuphonic, openai, playht, rime-ai, sesame, smallest-ai, wellsaid voices",
                        "members.0.assistant.transcriber.model must be one of the following values: "
                                + String.join(", ", SdkValues.GOOGLE_TRANSCRIBER_MODEL)));
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    /** Created, read, listed and read internally: the public answers without the secrets, the internal one with them. */
    private static void assertReadBack(String body) {
        JsonNode sent = tree(body);
        JsonNode created = tree(orgA().body(body).when().post("/assistant").then().statusCode(201));
        assertEquals(withoutSecrets(sent), written(created));
        String id = created.get("id").asText();
        JsonNode fetched = tree(orgA().when().get("/assistant/" + id).then().statusCode(200));
        assertEquals(created, fetched);
        JsonNode listed = tree(orgA().queryParam("createdAtGe", created.get("createdAt").asText())
                .queryParam("limit", 1000).when().get("/assistant").then().statusCode(200));
        JsonNode entry = null;
        for (JsonNode item : listed) {
            if (item.get("id").asText().equals(id)) {
                entry = item;
            }
        }
        assertEquals(created, entry);
        assertEquals(sent, written(tree(TestClients.internal(TestKeys.ORG_A).when().get("/internal/assistant/" + id)
                .then().statusCode(200))));
    }
}
