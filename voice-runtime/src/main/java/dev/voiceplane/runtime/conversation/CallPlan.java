package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.voiceplane.runtime.provider.ChatMessage;
import dev.voiceplane.runtime.provider.ModelSettings;
import dev.voiceplane.runtime.provider.TranscriberSettings;
import dev.voiceplane.runtime.provider.VoiceSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one call runs with, read once from call-service's answer to the runtime's attachment (docs/calls.md, "Voice
 * runtime contract"): the frozen assistant's settings with the era's defaults filled in, and the prompt with its
 * {@code {{variable}}}s replaced from {@code variableValues}. A squad call starts with its first member and knows every
 * member ({@code squad}: empty for an assistant call) for the hand-offs. {@code turnTaking} is what the turn logic
 * runs with: the speaking plans, or the era's fields where they are absent; {@code keypad} is the caller's keypad as an
 * input ({@code keypadInputPlan}, docs/voice-runtime.md "Keypad").
 */
public record CallPlan(
        UUID callId,
        String orgId,
        String callType,
        TranscriberSettings transcriber,
        ModelSettings model,
        VoiceSettings voice,
        String firstMessage,
        boolean assistantSpeaksFirst,
        double silenceTimeoutSeconds,
        double maxDurationSeconds,
        double responseDelaySeconds,
        double llmRequestDelaySeconds,
        Integer numWordsToInterruptAssistant,
        List<String> endCallPhrases,
        String endCallMessage,
        List<String> clientMessages,
        Sound sound,
        List<String> serverMessages,
        String voicemailMessage,
        KnowledgeBase knowledgeBase,
        List<JsonNode> tools,
        List<SquadMember> squad,
        TurnTaking turnTaking,
        Keypad.Plan keypad) {

    /**
     * Recording and the voice settings around the conversation (docs/voice-runtime.md, "Recordings" and "Other voice
     * settings"): {@code recordingEnabled} (off unless set), {@code hipaaEnabled}, {@code backgroundSound}
     * ({@code off} unless {@code office}), and the orchestration switches the runtime answers at the call's start.
     */
    public record Sound(boolean recordingEnabled, boolean hipaaEnabled, String backgroundSound,
            boolean backchannelingEnabled, boolean fillerInjectionEnabled, boolean inputPreprocessingEnabled,
            boolean emotionRecognitionEnabled) {

        /** Recorded: asked for, and not a HIPAA call (which records nothing). */
        public boolean recorded() {
            return recordingEnabled && !hipaaEnabled;
        }

        static Sound read(JsonNode assistant) {
            return new Sound(assistant.path("recordingEnabled").asBoolean(false),
                    assistant.path("hipaaEnabled").asBoolean(false),
                    assistant.path("backgroundSound").asText("off"),
                    assistant.path("backchannelingEnabled").asBoolean(false),
                    assistant.path("voice").path("fillerInjectionEnabled").asBoolean(false),
                    assistant.path("voice").path("inputPreprocessingEnabled").asBoolean(true),
                    assistant.path("model").path("emotionRecognitionEnabled").asBoolean(false));
        }
    }

    /**
     * {@code model.knowledgeBase}: the files searched at each caller turn and how many passages go to the model
     * ({@code topK}, 1–10, {@value #DEFAULT_TOP_K} when unset); null when the model has none (or no files).
     */
    public record KnowledgeBase(List<String> fileIds, int topK) {
    }

    static final double DEFAULT_SILENCE_TIMEOUT = 30;
    static final double DEFAULT_MAX_DURATION = 1800;
    static final double DEFAULT_RESPONSE_DELAY = 0.4;
    static final double DEFAULT_LLM_REQUEST_DELAY = 0.1;
    static final int DEFAULT_MIN_CHARACTERS = 30;
    static final int DEFAULT_TOP_K = 3;
    static final List<String> DEFAULT_BOUNDARIES = List.of(".", "!", "?", ";", ":", "。", "？", "！");
    /** The server messages an assistant gets when it does not list them (call-service's default). */
    static final List<String> DEFAULT_SERVER_MESSAGES = List.of("end-of-call-report", "status-update", "hang",
            "tool-calls");
    private static final Pattern VARIABLE = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_.\\-]+)\\s*}}");

    /** Reads the attachment answer: {@code {call, assistant, squad, variableValues, phoneNumber, ...}}. */
    public static CallPlan read(UUID callId, String orgId, JsonNode configuration) {
        JsonNode call = configuration.path("call");
        JsonNode assistant = configuration.path("assistant");
        if ((assistant.isMissingNode() || assistant.isNull()) && configuration.path("squad").isObject()) {
            assistant = configuration.path("squad").path("members").path(0).path("assistant");
        }
        JsonNode variables = configuration.path("variableValues");
        assistant = SquadMember.withHandOffs(assistant, configuration.path("squad").path("members").path(0));

        JsonNode t = assistant.path("transcriber");
        TranscriberSettings transcriber = new TranscriberSettings(text(t, "provider", "deepgram"),
                text(t, "model", null), text(t, "language", null),
                t.path("smartFormat").isBoolean() ? t.path("smartFormat").asBoolean() : null, strings(t.path("keywords")),
                t.isObject() ? t : JsonNodeFactory.instance.objectNode());

        JsonNode m = assistant.path("model");
        List<ChatMessage> prompt = new ArrayList<>();
        for (JsonNode message : m.path("messages")) {
            String content = message.path("content").asText("");
            prompt.add(new ChatMessage(message.path("role").asText("system"), substitute(content, variables)));
        }
        ModelSettings model = m.isObject()
                ? new ModelSettings(text(m, "provider", null), text(m, "model", null), strings(m.path("fallbackModels")),
                        m.path("temperature").isNumber() ? m.path("temperature").asDouble() : null,
                        m.path("maxTokens").isNumber() ? m.path("maxTokens").asInt() : null, text(m, "url", null),
                        List.copyOf(prompt), m)
                : null;

        JsonNode v = assistant.path("voice");
        List<String> boundaries = strings(v.path("inputPunctuationBoundaries"));
        VoiceSettings voice = v.isObject()
                ? new VoiceSettings(text(v, "provider", null), text(v, "voiceId", null),
                        v.path("speed").isNumber() ? v.path("speed").asDouble() : null,
                        v.path("inputMinCharacters").isNumber() ? v.path("inputMinCharacters").asInt()
                                : DEFAULT_MIN_CHARACTERS,
                        // inputPreprocessingEnabled false: the reply goes to the voice whole, uncut (docs).
                        !v.path("inputPreprocessingEnabled").asBoolean(true) ? List.of()
                                : boundaries.isEmpty() ? DEFAULT_BOUNDARIES : boundaries, v)
                : null;

        String firstMessage = assistant.path("firstMessage").isTextual()
                ? substitute(assistant.path("firstMessage").asText(), variables) : null;
        double responseDelay = number(assistant, "responseDelaySeconds", DEFAULT_RESPONSE_DELAY);
        Integer interruptWords = assistant.path("numWordsToInterruptAssistant").isNumber()
                ? assistant.path("numWordsToInterruptAssistant").asInt() : null;
        String endCallMessage = assistant.path("endCallMessage").isTextual()
                ? substitute(assistant.path("endCallMessage").asText(), variables) : null;
        return new CallPlan(callId, orgId, call.path("type").asText(""), transcriber, model, voice, firstMessage,
                !"assistant-waits-for-user".equals(assistant.path("firstMessageMode").asText()),
                number(assistant, "silenceTimeoutSeconds", DEFAULT_SILENCE_TIMEOUT),
                number(assistant, "maxDurationSeconds", DEFAULT_MAX_DURATION),
                responseDelay,
                number(assistant, "llmRequestDelaySeconds", DEFAULT_LLM_REQUEST_DELAY),
                interruptWords,
                strings(assistant.path("endCallPhrases")), endCallMessage, strings(assistant.path("clientMessages")),
                Sound.read(assistant),
                assistant.path("serverMessages").isArray() ? strings(assistant.path("serverMessages"))
                        : DEFAULT_SERVER_MESSAGES,
                assistant.path("voicemailMessage").isTextual()
                        ? substitute(assistant.path("voicemailMessage").asText(), variables) : null,
                knowledgeBase(m.path("knowledgeBase")),
                objects(m.path("tools")), SquadMember.readAll(callId, orgId, configuration),
                TurnTaking.read(assistant, responseDelay, interruptWords), Keypad.Plan.read(assistant));
    }

    private static KnowledgeBase knowledgeBase(JsonNode base) {
        List<String> files = strings(base.path("fileIds"));
        if (!base.isObject() || files.isEmpty()) {
            return null;
        }
        int topK = base.path("topK").isNumber() ? Math.max(1, Math.min(10, base.path("topK").asInt())) : DEFAULT_TOP_K;
        return new KnowledgeBase(files, topK);
    }

    /** Replaces {@code {{name}}} with the variable's value; unknown variables stay as written. */
    static String substitute(String text, JsonNode variables) {
        if (text == null || text.indexOf("{{") < 0 || variables == null || !variables.isObject()) {
            return text;
        }
        Matcher matcher = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            JsonNode value = variables.path(matcher.group(1));
            String replacement = value.isMissingNode() || value.isNull() ? matcher.group()
                    : value.isValueNode() ? value.asText() : value.toString();
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        return matcher.appendTail(out).toString();
    }

    private static String text(JsonNode node, String field, String fallback) {
        JsonNode value = node.path(field);
        return value.isTextual() ? value.asText() : fallback;
    }

    private static double number(JsonNode node, String field, double fallback) {
        JsonNode value = node.path(field);
        return value.isNumber() ? value.asDouble() : fallback;
    }

    /** The objects of an array (the model's tools: inline ones and the frozen {@code toolIds}, in that order). */
    private static List<JsonNode> objects(JsonNode array) {
        List<JsonNode> values = new ArrayList<>();
        for (JsonNode item : array) {
            if (item.isObject()) {
                values.add(item);
            }
        }
        return List.copyOf(values);
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        for (JsonNode item : array) {
            if (item.isTextual()) {
                values.add(item.asText());
            }
        }
        return List.copyOf(values);
    }
}
