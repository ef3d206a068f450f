package dev.voiceplane.call.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.call.api.Analysis;
import dev.voiceplane.call.client.ChatCompletionsApi;
import dev.voiceplane.call.client.Credentials;
import dev.voiceplane.kit.client.PeerService;
import dev.voiceplane.kit.client.PeerServices;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

/**
 * Runs an assistant's {@code analysisPlan} on a call's transcript with the organisation's own LLM key (its newest
 * {@code openai} credential, read from credential-service at the moment of use) through an OpenAI-compatible chat
 * API ({@code VOICE_OPENAI_API_URL}). Summary and success evaluation run for every call with a transcript (the
 * era's default prompts unless the plan gives its own); structured data only when the plan asks for it, and is kept
 * only when it has the shape of {@code structuredDataSchema}. Each part fails on its own and leaves only its field
 * out: the call stays ended with what is known.
 */
@ApplicationScoped
public class CallAnalyst {

    private static final Logger LOG = Logger.getLogger(CallAnalyst.class);
    static final String PROVIDER = "openai";
    static final String SUMMARY_PROMPT = "You are an expert note-taker. You will be given a transcript of a call. "
            + "Summarize the call in 2-3 sentences, if applicable.";
    static final String SUCCESS_PROMPT = "You are an expert call evaluator. You will be given a transcript of a call "
            + "and the system prompt of the AI participant. Determine if the call was successful based on the "
            + "objectives inferred from the system prompt.";
    static final String STRUCTURED_PROMPT = "You are an expert data extractor. You will be given a transcript of a "
            + "call. Extract structured data per the JSON Schema. Answer with JSON only.";
    private static final Map<String, String> RUBRICS = Map.of(
            "NumericScale", "Answer with a number from 1 to 10.",
            "DescriptiveScale", "Answer with one of: Excellent, Good, Fair, Poor.",
            "Checklist", "Answer with a checklist of the criteria, each marked done or not.",
            "Matrix", "Answer with a grid of the criteria and how well each was met.",
            "PercentageScale", "Answer with a percentage from 0% to 100%.",
            "LikertScale", "Answer with one of: Strongly Agree, Agree, Neutral, Disagree, Strongly Disagree.",
            "AutomaticRubric", "Answer with a breakdown by criteria you choose.",
            "PassFail", "Answer with true or false only.");

    private final ChatCompletionsApi chat;
    private final PeerService peer;
    private final Credentials credentials;
    private final ObjectMapper json;
    private final String model;

    public CallAnalyst(@RestClient ChatCompletionsApi chat, PeerServices peers, Credentials credentials,
            ObjectMapper json, @ConfigProperty(name = "voice.analysis.model") String model) {
        this.chat = chat;
        this.peer = peers.named("openai");
        this.credentials = credentials;
        this.json = json;
        this.model = model;
    }

    /** What the analysis produced and the tokens each part took. */
    public record Result(Analysis analysis, Costs.Tokens summary, Costs.Tokens structuredData,
            Costs.Tokens successEvaluation) {
        static final Result NONE = new Result(null, Costs.Tokens.NONE, Costs.Tokens.NONE, Costs.Tokens.NONE);
    }

    public Result analyse(String orgId, AssistantSettings assistant, String transcript) {
        if (transcript == null || transcript.isBlank()) {
            return Result.NONE;
        }
        Optional<String> key;
        try {
            key = credentials.apiKey(orgId, PROVIDER);
        } catch (RuntimeException unavailable) {
            LOG.warnf("analysis skipped: the organisation's %s key could not be read (%s)", PROVIDER, unavailable.toString());
            return Result.NONE;
        }
        if (key.isEmpty()) {
            LOG.debugf("analysis skipped: organisation %s has no %s credential", orgId, PROVIDER);
            return Result.NONE;
        }
        AssistantSettings.AnalysisPlan plan = assistant.analysisPlan();

        Answer summary = ask(key.get(), plan.summaryPrompt().orElse(SUMMARY_PROMPT), transcript, false);

        String successPrompt = plan.successEvaluationPrompt().orElse(SUCCESS_PROMPT) + "\n\nRubric: "
                + RUBRICS.getOrDefault(plan.successEvaluationRubric(), RUBRICS.get("PassFail"))
                + assistant.systemPrompt().map(prompt -> "\n\nThe system prompt of the AI participant:\n" + prompt)
                        .orElse("");
        Answer success = ask(key.get(), successPrompt, transcript, false);

        Answer structured = Answer.NONE;
        String structuredData = null;
        JsonNode schema = plan.structuredDataSchema().orElse(null);
        if (plan.structuredDataAsked()) {
            String prompt = plan.structuredDataPrompt().orElse(STRUCTURED_PROMPT)
                    + (schema == null ? "" : "\n\nJSON Schema:\n" + schema);
            structured = ask(key.get(), prompt, transcript, true);
            structuredData = validStructuredData(structured.content(), schema);
        }
        Analysis analysis = summary.content() == null && structuredData == null && success.content() == null
                ? null
                : new Analysis(summary.content(), structuredData, success.content());
        return new Result(analysis,
                summary.tokens(), structured.tokens(), success.tokens());
    }

    private record Answer(String content, Costs.Tokens tokens) {
        static final Answer NONE = new Answer(null, Costs.Tokens.NONE);
    }

    private Answer ask(String apiKey, String prompt, String transcript, boolean jsonAnswer) {
        ObjectNode request = json.createObjectNode().put("model", model);
        request.putArray("messages")
                .add(json.createObjectNode().put("role", "system").put("content", prompt))
                .add(json.createObjectNode().put("role", "user").put("content",
                        "Here is the transcript:\n\n" + transcript + "\n\n"));
        if (jsonAnswer) {
            request.putObject("response_format").put("type", "json_object");
        }
        try {
            ObjectNode answer = peer.call(() -> chat.complete("Bearer " + apiKey, request), "so the call is not analysed");
            JsonNode content = answer.path("choices").path(0).path("message").path("content");
            JsonNode usage = answer.path("usage");
            return new Answer(content.isTextual() ? content.asText().strip() : null,
                    new Costs.Tokens(usage.path("prompt_tokens").asLong(0), usage.path("completion_tokens").asLong(0)));
        } catch (RuntimeException failed) {
            LOG.warnf("an analysis request failed (%s); the call keeps what is known", failed.toString());
            return Answer.NONE;
        }
    }

    /**
     * The extracted data as JSON text (a string in the API: docs/calls.md, "Call object"), or null when it does not
     * fit.
     */
    private String validStructuredData(String content, JsonNode schema) {
        if (content == null) {
            return null;
        }
        try {
            JsonNode value = json.readTree(content);
            if (!StructuredData.conforms(value, schema)) {
                LOG.infof("structured data does not match structuredDataSchema; left out");
                return null;
            }
            return json.writeValueAsString(value);
        } catch (JsonProcessingException notJson) {
            LOG.infof("structured data is not JSON; left out");
            return null;
        }
    }

}
