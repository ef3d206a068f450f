package dev.voiceplane.assistant.rest;

import static dev.voiceplane.assistant.rest.Bodies.assistantWith;
import static dev.voiceplane.kit.testing.TestClients.newId;
import static dev.voiceplane.kit.testing.TestClients.orgA;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.voiceplane.contracts.catalog.Providers;
import dev.voiceplane.kit.testing.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/assistants-and-squads.md "Validation rules" and the documented types: every range, enumeration, required field
 * and wrong type is a 400.
 */
@QuarkusTest
class AssistantValidationTest {

    @Inject
    AgroalDataSource dataSource;

    // ---- numeric ranges -------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} in {1}..{2}")
    @CsvSource({
            "silenceTimeoutSeconds, 10, 600",
            "responseDelaySeconds, 0, 5",
            "llmRequestDelaySeconds, 0, 3",
            "numWordsToInterruptAssistant, 1, 10",
            "maxDurationSeconds, 10, 3600",
            "model.temperature, 0, 2",
            "model.maxTokens, 50, 1000",
            "model.knowledgeBase.topK, 1, 10",
            "voice.inputMinCharacters, 1, 80",
            "voicemailDetection.machineDetectionTimeout, 3, 59",
            "voicemailDetection.machineDetectionSpeechThreshold, 1000, 6000",
            "voicemailDetection.machineDetectionSpeechEndThreshold, 500, 5000",
            "voicemailDetection.machineDetectionSilenceTimeout, 2000, 10000"})
    void numbersOutsideTheirRangeAreRejectedAndTheBoundsAccepted(String path, String min, String max) {
        BigDecimal half = new BigDecimal("0.5");
        rejected(assistantWith(path, new BigDecimal(min).subtract(half).toPlainString()),
                path + " must not be less than " + min);
        rejected(assistantWith(path, new BigDecimal(max).add(half).toPlainString()),
                path + " must not be greater than " + max);
        accepted(assistantWith(path, min));
        accepted(assistantWith(path, max));
        // Numbers are numbers, not necessarily integers (docs/assistants-and-squads.md, "What is stored and returned").
        accepted(assistantWith(path, new BigDecimal(min).add(half).toPlainString()));
    }

    @Test
    void numFastTurnsHasNoUpperBound() {
        rejected(assistantWith("model.numFastTurns", "-1"), "model.numFastTurns must not be less than 0");
        accepted(assistantWith("model.numFastTurns", "0"));
        accepted(assistantWith("model.numFastTurns", "1000000"));
    }

    // ---- text lengths ---------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} at most {1} characters")
    @CsvSource({
            "name, 100",
            "firstMessage, 1000",
            "voicemailMessage, 1000",
            "endCallMessage, 400",
            "analysisPlan.summaryPrompt, 2000",
            "analysisPlan.successEvaluationPrompt, 2000",
            "analysisPlan.structuredDataPrompt, 2000"})
    void textsLongerThanTheirLimitAreRejected(String path, int max) {
        accepted(assistantWith(path, "\"" + "é".repeat(max) + "\""));
        rejected(assistantWith(path, "\"" + "a".repeat(max + 1) + "\""),
                path + " must be shorter than or equal to " + max + " characters");
    }

    // ---- enumerations ---------------------------------------------------------------------------------------

    static Stream<Arguments> enumerations() {
        return Stream.of(
                Arguments.of("firstMessageMode", "%s", "firstMessageMode", false, List.of("assistant-speaks-first", "assistant-waits-for-user")),
                Arguments.of("backgroundSound", "%s", "backgroundSound", false, List.of("off", "office")),
                Arguments.of("clientMessages", "%s", "clientMessages", true, List.of("status-update", "speech-update", "transcript", "hang",
                        "function-call", "tool-calls", "metadata", "conversation-update", "model-output", "voice-input",
                        "user-interrupted")),
                Arguments.of("serverMessages", "%s", "serverMessages", true, List.of("status-update", "transcript", "hang", "function-call",
                        "tool-calls", "end-of-call-report", "conversation-update", "phone-call-control", "model-output",
                        "voice-input", "speech-update", "user-interrupted")),
                Arguments.of("voicemailDetection.voicemailDetectionTypes", "%s",
                        "voicemailDetection.voicemailDetectionTypes", true, List.of("machine_start", "human", "fax",
                        "unknown", "machine_end_beep", "machine_end_silence", "machine_end_other")),
                Arguments.of("analysisPlan.successEvaluationRubric", "%s", "analysisPlan.successEvaluationRubric", false, List.of("NumericScale", "DescriptiveScale",
                        "Checklist", "Matrix", "PercentageScale", "LikertScale", "AutomaticRubric", "PassFail")),
                Arguments.of("analysisPlan.structuredDataSchema.type", "%s", "analysisPlan.structuredDataSchema.type", false,
                        List.of("string", "number", "integer", "boolean", "array", "object")),
                Arguments.of("model.messages", "[{\"role\":%s}]", "model.messages.0.role", false,
                        List.of("assistant", "function", "user", "system", "tool")),
                Arguments.of("model.tools", "[{\"type\":%s}]", "model.tools.0.type", false,
                        List.of("function", "transferCall", "endCall", "dtmf", "make", "ghl", "voicemail")),
                Arguments.of("model.tools", "[{\"type\":\"function\",\"messages\":[{\"type\":%s}]}]",
                        "model.tools.0.messages.0.type", false,
                        List.of("request-start", "request-complete", "request-failed", "request-response-delayed")),
                Arguments.of("model.tools", "[{\"type\":\"function\",\"messages\":[{\"type\":\"request-start\","
                        + "\"conditions\":[{\"param\":\"p\",\"value\":1,\"operator\":%s}]}]}]",
                        "model.tools.0.messages.0.conditions.0.operator", false,
                        List.of("eq", "neq", "gt", "gte", "lt", "lte")),
                Arguments.of("model.tools", "[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":%s}}}]",
                        "model.tools.0.function.parameters.type", false, List.of("object")));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("enumerations")
    void enumerationsTakeTheirValuesOnly(String path, String template, String field, boolean array, List<String> values) {
        if (array) {
            accepted(assistantWith(path, quotedList(values)));
            rejected(assistantWith(path, "[\"" + values.getFirst() + "\",\"bogus\"]"),
                    field + ".1 must be one of the following values: " + String.join(", ", values));
        } else {
            for (String value : values) {
                accepted(assistantWith(path, template.formatted("\"" + value + "\"")));
            }
            rejected(assistantWith(path, template.formatted("\"bogus\"")),
                    field + " must be one of the following values: " + String.join(", ", values));
        }
    }

    static Stream<Arguments> providers() {
        return Stream.of(
                Arguments.of("transcriber.provider", Providers.TRANSCRIBER, List.of("transcriberA")),
                Arguments.of("model.provider", Providers.MODEL, List.of("llmA")),
                Arguments.of("voice.provider", Providers.VOICE, List.of("voiceA")),
                Arguments.of("model.knowledgeBase.provider", Providers.KNOWLEDGE_BASE, List.of("kbA")),
                Arguments.of("voicemailDetection.provider", Providers.VOICEMAIL_DETECTION, List.of("carrierA")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("providers")
    void providersComeFromTheCatalogueOrItsNeutralWords(String path, Set<String> real, List<String> neutral) {
        for (String provider : Stream.concat(real.stream(), neutral.stream()).toList()) {
            String body = assistantWith(path, "\"" + provider + "\"");
            // The providers whose settings require more than the parent's defaults.
            String required = switch (path + " " + provider) {
                case "model.provider custom-llm" -> ",\"url\":\"https://llm.example.com/v1\"";
                case "transcriber.provider openai" -> ",\"model\":\"gpt-4o-transcribe\"";
                case "transcriber.provider custom-transcriber", "voice.provider custom-voice" ->
                        ",\"server\":{\"url\":\"https://speech.example.com/ws\"}";
                case "voice.provider sesame" -> ",\"model\":\"csm-1b\"";
                default -> "";
            };
            accepted(body.replace("\"" + provider + "\"", "\"" + provider + "\"" + required));
        }
        rejected(assistantWith(path, "\"acme\""), Providers.mustBeOneOf(path, real));
        // A neutral word is not a wildcard: carrierB is vonage, which is none of these.
        rejected(assistantWith(path, "\"carrierB\""), Providers.mustBeOneOf(path, real));
    }

    @Test
    void theProviderMessageListsTheRealIdentifiers() {
        rejected("{\"transcriber\":{\"provider\":\"whisper\"}}",
                "transcriber.provider must be one of the following values: 11labs, assembly-ai, azure, cartesia,"
                        + " custom-transcriber, deepgram, gladia, google, openai, soniox, speechmatics, talkscriber");
    }

    // ---- required nested fields -----------------------------------------------------------------------------

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "{\"model\":{\"model\":\"gpt-4o\"}}| model.provider should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\"}}| model.model should not be null or undefined",
            "{\"voice\":{\"voiceId\":\"v\"}}| voice.provider should not be null or undefined",
            "{\"voice\":{\"provider\":\"azure\"}}| voice.voiceId should not be null or undefined",
            "{\"transcriber\":{\"model\":\"nova-2\"}}| transcriber.provider should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"knowledgeBase\":{\"fileIds\":[]}}}| model.knowledgeBase.provider should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"knowledgeBase\":{\"provider\":\"canonical\"}}}| model.knowledgeBase.fileIds should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"messages\":[{\"content\":\"hi\"}]}}| model.messages.0.role should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"async\":true}]}}| model.tools.0.type should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"function\":{\"description\":\"d\"}}]}}| model.tools.0.function.name should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{}}}]}}| model.tools.0.function.parameters.type should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"server\":{\"secret\":\"s\"}}]}}| model.tools.0.server.url should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"messages\":[{\"content\":\"c\"}]}]}}| model.tools.0.messages.0.type should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"messages\":[{\"type\":\"request-start\",\"conditions\":[{\"value\":1,\"operator\":\"eq\"}]}]}]}}| model.tools.0.messages.0.conditions.0.param should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"messages\":[{\"type\":\"request-start\",\"conditions\":[{\"param\":\"p\",\"operator\":\"eq\"}]}]}]}}| model.tools.0.messages.0.conditions.0.value should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"messages\":[{\"type\":\"request-start\",\"conditions\":[{\"param\":\"p\",\"value\":1}]}]}]}}| model.tools.0.messages.0.conditions.0.operator should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"transferCall\",\"destinations\":[{\"assistantName\":\"B\"}]}]}}| model.tools.0.destinations.0.type should not be null or undefined",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"transferCall\",\"destinations\":[{\"type\":\"assistant\"}]}]}}| model.tools.0.destinations.0.assistantName should not be null or undefined",
            "{\"analysisPlan\":{\"structuredDataSchema\":{\"description\":\"d\"}}}| analysisPlan.structuredDataSchema.type should not be null or undefined"})
    void nestedObjectsRequireTheirKeyFields(String body, String message) {
        rejected(body, message.strip());
    }

    /**
     * A transfer tool's destinations are assistants (by name) or phone numbers (E.164), each with its own fields
     * (issue 29: the runtime redirects the carrier call to a number); the two kinds do not mix. A squad member's
     * assistantDestinations stay assistants only (SquadValidationTest).
     */
    @Test
    void transferDestinationsAreAssistantsOrNumbersEachWithItsFields() {
        String tool = "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"transferCall\","
                + "\"destinations\":[%s]}]}}";
        accepted(tool.formatted("{\"type\":\"assistant\",\"assistantName\":\"Billing\"}"));
        accepted(tool.formatted("{\"type\":\"number\",\"number\":\"+14155550123\",\"message\":\"Transferring you now.\","
                + "\"description\":\"the front desk\"}"));
        rejected(tool.formatted("{\"type\":\"bogus\",\"assistantName\":\"Billing\"}"),
                "model.tools.0.destinations.0.type must be one of the following values: assistant, number");
        rejected(tool.formatted("{\"type\":\"number\"}"),
                "model.tools.0.destinations.0.number should not be null or undefined");
        rejected(tool.formatted("{\"type\":\"number\",\"number\":\"4155550123\"}"),
                "model.tools.0.destinations.0.number must be a valid phone number in the E.164 format");
        rejected(tool.formatted("{\"type\":\"number\",\"number\":\"+14155550123\",\"assistantName\":\"B\"}"),
                "model.tools.0.destinations.0.property assistantName should not exist");
        rejected(tool.formatted("{\"type\":\"assistant\",\"assistantName\":\"B\",\"number\":\"+14155550123\"}"),
                "model.tools.0.destinations.0.property number should not exist");
    }

    @Test
    void nothingIsRequiredAtTheTopLevelAndEveryProblemIsListed() {
        accepted("{}");
        orgA().body("{\"model\":{},\"voice\":{},\"transcriber\":{},\"silenceTimeoutSeconds\":1,\"backgroundSound\":\"jungle\"}")
                .when().post("/assistant")
                .then().statusCode(400)
                .body("error", equalTo("Bad Request"))
                .body("statusCode", equalTo(400))
                .body("message", containsInAnyOrder(
                        "model.provider should not be null or undefined",
                        "model.model should not be null or undefined",
                        "voice.provider should not be null or undefined",
                        "voice.voiceId should not be null or undefined",
                        "transcriber.provider should not be null or undefined",
                        "silenceTimeoutSeconds must not be less than 10",
                        "backgroundSound must be one of the following values: off, office"));
    }

    @Test
    void nullElementsInArraysAreRejected() {
        rejected("{\"clientMessages\":[null]}", "clientMessages.0 should not be null or undefined");
        rejected("{\"endCallPhrases\":[\"bye\",null]}", "endCallPhrases.1 should not be null or undefined");
        rejected("{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[null]}}",
                "model.tools.0 should not be null or undefined");
        rejected("{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"toolIds\":[null]}}",
                "model.toolIds.0 should not be null or undefined");
    }

    // ---- provider-dependent model settings, tool functions, addresses ----------------------------------------

    @Test
    void onlyOpenaiModelsCarryTheirOwnSettings() {
        orgA().body("{\"model\":{\"provider\":\"anthropic\",\"model\":\"claude-3-opus-20240229\",\"fallbackModels\":[\"x\"],"
                        + "\"semanticCachingEnabled\":true,\"numFastTurns\":1}}")
                .when().post("/assistant")
                .then().statusCode(400).body("message", containsInAnyOrder(
                        "model.fallbackModels is only supported by openai models",
                        "model.semanticCachingEnabled is only supported by openai models",
                        "model.numFastTurns is only supported by openai models"));
        accepted("{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"fallbackModels\":[\"gpt-4\"],"
                + "\"semanticCachingEnabled\":false,\"numFastTurns\":0}}");
        accepted("{\"model\":{\"provider\":\"groq\",\"model\":\"llama3-70b-8192\",\"temperature\":0.2}}");
    }

    @Test
    void realtimeModelsNeedNoTranscriberNorVoiceAndSpeakWithTheirOwnVoices() {
        for (String model : List.of("gpt-realtime", "gpt-realtime-mini", "gpt-4o-realtime-preview",
                "gpt-realtime-2025-08-28", "gpt-realtime-mini-2025-12-15")) {
            accepted("{\"model\":{\"provider\":\"openai\",\"model\":\"" + model + "\","
                    + "\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"}]},\"firstMessage\":\"Hi\"}");
        }
        for (String voice : List.of("alloy", "ash", "ballad", "coral", "echo", "sage", "shimmer", "verse", "marin",
                "cedar")) {
            accepted("{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-realtime\"},"
                    + "\"voice\":{\"provider\":\"openai\",\"voiceId\":\"" + voice + "\"}}");
        }
        rejected("{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-realtime\"},"
                        + "\"voice\":{\"provider\":\"openai\",\"voiceId\":\"nova\"}}",
                "voice.voiceId must be a voice of the realtime model gpt-realtime: alloy, ash, ballad, coral, echo,"
                        + " sage, shimmer, verse, marin, cedar");
        // A cascaded OpenAI model keeps its text-to-speech voices (nova is one of them).
        accepted("{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\"},"
                + "\"voice\":{\"provider\":\"openai\",\"voiceId\":\"nova\"}}");
    }

    @Test
    void geminiLiveModelsNeedNoTranscriberNorVoiceAndSpeakWithTheirOwnVoices() {
        for (String model : List.of("gemini-live-2.5-flash-preview", "gemini-2.0-flash-live-001",
                "gemini-live-2.5-flash", "gemini-2.5-flash-native-audio-preview-09-2025",
                "gemini-2.5-flash-preview-native-audio-dialog")) {
            accepted("{\"model\":{\"provider\":\"google\",\"model\":\"" + model + "\","
                    + "\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"}]},\"firstMessage\":\"Hi\"}");
        }
        for (String voice : List.of("Puck", "Charon", "Kore", "Fenrir", "Aoede", "Leda", "Orus", "Zephyr",
                "Sulafat")) {
            accepted("{\"model\":{\"provider\":\"google\",\"model\":\"gemini-live-2.5-flash-preview\"},"
                    + "\"voice\":{\"provider\":\"vapi\",\"voiceId\":\"" + voice + "\"}}");
        }
        String voices = "Puck, Charon, Kore, Fenrir, Aoede, Leda, Orus, Zephyr, Callirrhoe, Autonoe, Enceladus,"
                + " Iapetus, Umbriel, Algieba, Despina, Erinome, Algenib, Rasalgethi, Laomedeia, Achernar, Alnilam,"
                + " Schedar, Gacrux, Pulcherrima, Achird, Zubenelgenubi, Vindemiatrix, Sadachbia, Sadaltager, Sulafat";
        rejected("{\"model\":{\"provider\":\"google\",\"model\":\"gemini-live-2.5-flash-preview\"},"
                        + "\"voice\":{\"provider\":\"vapi\",\"voiceId\":\"alloy\"}}",
                "voice.voiceId must be a voice of the realtime model gemini-live-2.5-flash-preview: " + voices);
        // A Gemini chat model is not a Live model: its voice is the voice provider's.
        accepted("{\"model\":{\"provider\":\"google\",\"model\":\"gemini-2.5-flash\"},"
                + "\"voice\":{\"provider\":\"openai\",\"voiceId\":\"alloy\"}}");
        // A squad's inline member is validated alike.
        String member = "{\"assistant\":{\"name\":\"Live\",\"model\":{\"provider\":\"google\","
                + "\"model\":\"gemini-2.0-flash-live-001\"},\"voice\":{\"provider\":\"vapi\",\"voiceId\":\"%s\"}}}";
        orgA().body("{\"members\":[" + member.formatted("Aoede") + "]}").when().post("/squad")
                .then().statusCode(201);
        orgA().body("{\"members\":[" + member.formatted("nova") + "]}").when().post("/squad")
                .then().statusCode(400)
                .body("statusCode", equalTo(400))
                .body("error", equalTo("Bad Request"))
                .body("message", contains(endsWith("voice.voiceId must be a voice of the realtime model"
                        + " gemini-2.0-flash-live-001: " + voices)));
    }

    @Test
    void customLlmModelsNeedAUrlAndOnlyTheyTakeOne() {
        rejected("{\"model\":{\"provider\":\"custom-llm\",\"model\":\"mine\"}}",
                "model.url should not be null or undefined when provider is custom-llm");
        rejected("{\"model\":{\"provider\":\"custom-llm\",\"model\":\"mine\",\"url\":\"not a url\"}}",
                "model.url must be a URL address");
        rejected("{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"url\":\"https://llm.example.com\"}}",
                "model.url is only supported by custom-llm models");
        accepted("{\"model\":{\"provider\":\"custom-llm\",\"model\":\"mine\",\"url\":\"https://llm.example.com/v1\"}}");
    }

    @Test
    void functionNamesFollowThePattern() {
        String pattern = " must match ^[a-zA-Z0-9_-]{1,64}$ regular expression";
        for (String bad : List.of("get weather", "", "a".repeat(65), "naïve", "call.me")) {
            rejected(tool("{\"type\":\"function\",\"function\":{\"name\":\"" + bad + "\"}}"),
                    "model.tools.0.function.name" + pattern);
        }
        accepted(tool("{\"type\":\"function\",\"function\":{\"name\":\"" + "a".repeat(64) + "\"}}"));
        accepted(tool("{\"type\":\"function\",\"function\":{\"name\":\"Get_Weather-2\"}}"));
    }

    @Test
    void serverAddressesMustBeHttpUrls() {
        for (String bad : List.of("hooks.example.com/voice", "ftp://hooks.example.com", "https://", "not a url",
                " https://hooks.example.com")) {
            rejected("{\"serverUrl\":\"" + bad + "\"}", "serverUrl must be a URL address");
            rejected(tool("{\"type\":\"function\",\"server\":{\"url\":\"" + bad + "\"}}"),
                    "model.tools.0.server.url must be a URL address");
        }
        accepted("{\"serverUrl\":\"http://localhost:8080/hook?x=1\"}");
        accepted("{\"serverUrl\":\"https://hooks.example.com/voice\",\"serverUrlSecret\":\"s3cret\"}");
    }

    // ---- wrong types and unknown properties -----------------------------------------------------------------

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
            "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"temperature\":\"0.7\"}}| model.temperature must be a number",
            "{\"silenceTimeoutSeconds\":true}| silenceTimeoutSeconds must be a number",
            "{\"recordingEnabled\":\"true\"}| recordingEnabled must be a boolean value",
            "{\"hipaaEnabled\":1}| hipaaEnabled must be a boolean value",
            "{\"name\":5}| name must be a string",
            "{\"firstMessage\":{\"text\":\"hi\"}}| firstMessage must be a string",
            "{\"metadata\":\"vip\"}| metadata must be an object",
            "{\"metadata\":[1,2]}| metadata must be an object",
            "{\"clientMessages\":\"transcript\"}| clientMessages must be an array",
            "{\"clientMessages\":[1]}| clientMessages.0 must be a string",
            "{\"model\":[]}| model must be an object",
            "{\"voice\":\"azure\"}| voice must be an object",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"async\":\"yes\"}]}}| model.tools.0.async must be a boolean value",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":\"object\",\"properties\":[]}}}]}}| model.tools.0.function.parameters.properties must be an object",
            "{\"model\":{\"provider\":\"openai\",\"model\":\"m\",\"knowledgeBase\":{\"provider\":\"canonical\",\"fileIds\":\"f\"}}}| model.knowledgeBase.fileIds must be an array",
            "{\"analysisPlan\":{\"structuredDataSchema\":{\"type\":\"object\",\"items\":true}}}| analysisPlan.structuredDataSchema.items must be an object",
            "[]| request body must be an object"})
    void wrongTypesAreRejectedWithTheirPath(String body, String message) {
        rejected(body, message.strip());
    }

    @Test
    void aMissingBodyIsRejected() {
        orgA().when().post("/assistant").then().statusCode(400)
                .body("message", contains("request body must be a JSON object"));
    }

    @Test
    void unknownPropertiesAnywhereAreNamedWithTheirPath() {
        String body = """
                {"colour": "blue", "id": "0190b5a4-7c1e-7b7e-9a43-3c9a5e0f1d22", "orgId": "org-a",
                 "createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-01T00:00:00.000Z", "variableValues": {},
                 "transcriber": {"provider": "deepgram", "tier": "nova"},
                 "voice": {"provider": "azure", "voiceId": "v", "pitch": 2},
                 "voicemailDetection": {"beep": true},
                 "analysisPlan": {"structuredDataSchema": {"type": "object", "format": "x"}, "extra": 1},
                 "model": {"provider": "openai", "model": "gpt-4o", "top_p": 1,
                           "messages": [{"role": "system", "content": "hi", "name": "n"}],
                           "knowledgeBase": {"provider": "canonical", "fileIds": [], "chunkSize": 5},
                           "tools": [{"type": "function", "strict": true,
                                      "function": {"name": "f", "strict": true,
                                                   "parameters": {"type": "object", "additionalProperties": false}},
                                      "server": {"url": "https://x.example", "backoffPlan": {}},
                                      "messages": [{"type": "request-start", "blocking": true,
                                                    "conditions": [{"param": "p", "value": 1, "operator": "eq", "not": true}]}],
                                      "destinations": [{"type": "assistant", "assistantName": "B", "transferPlan": {}}]}]}}
                """;
        orgA().body(body).when().post("/assistant")
                .then().statusCode(400)
                .body("message", containsInAnyOrder(
                        "property colour should not exist",
                        "property id should not exist",
                        "property orgId should not exist",
                        "property createdAt should not exist",
                        "property updatedAt should not exist",
                        "property variableValues should not exist",
                        "transcriber.property tier should not exist",
                        "voice.property pitch should not exist",
                        "voicemailDetection.property beep should not exist",
                        "analysisPlan.structuredDataSchema.property format should not exist",
                        "analysisPlan.property extra should not exist",
                        "model.property top_p should not exist",
                        "model.messages.0.property name should not exist",
                        "model.knowledgeBase.property chunkSize should not exist",
                        "model.tools.0.property strict should not exist",
                        "model.tools.0.function.property strict should not exist",
                        "model.tools.0.function.parameters.property additionalProperties should not exist",
                        "model.tools.0.server.property backoffPlan should not exist",
                        "model.tools.0.messages.0.property blocking should not exist",
                        "model.tools.0.messages.0.conditions.0.property not should not exist",
                        "model.tools.0.destinations.0.property transferPlan should not exist"));
    }

    @Test
    void aRejectedAssistantIsNotStored() throws Exception {
        String name = "rejected " + newId();
        orgA().body("{\"name\":\"" + name + "\",\"silenceTimeoutSeconds\":5}").when().post("/assistant").then().statusCode(400);
        orgA().body("{\"name\":\"" + name + "\",\"bogus\":true}").when().post("/assistant").then().statusCode(400);
        orgA().body("{\"name\":\"" + name + "\",\"recordingEnabled\":\"no\"}").when().post("/assistant").then().statusCode(400);
        assertEquals(0, storedWithName(name));
        accepted("{\"name\":\"" + name + "\"}");
        assertEquals(1, storedWithName(name));
    }

    private long storedWithName(String name) throws Exception {
        return TestDatabase.count(dataSource, "select count(*) from assistant.assistants where document->>'name' = ?", name);
    }

    // ---- helpers --------------------------------------------------------------------------------------------

    private static void accepted(String body) {
        orgA().body(body).when().post("/assistant").then().statusCode(201);
    }

    private static void rejected(String body, String message) {
        orgA().body(body).when().post("/assistant")
                .then().statusCode(400)
                .body("statusCode", equalTo(400))
                .body("error", equalTo("Bad Request"))
                .body("message", contains(message));
    }

    private static String tool(String toolJson) {
        return "{\"model\":{\"provider\":\"openai\",\"model\":\"gpt-4o\",\"tools\":[" + toolJson + "]}}";
    }

    private static String quotedList(List<String> values) {
        return values.stream().map(value -> "\"" + value + "\"").collect(Collectors.joining(",", "[", "]"));
    }
}
