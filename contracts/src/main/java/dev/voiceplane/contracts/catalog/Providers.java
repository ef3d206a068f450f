package dev.voiceplane.contracts.catalog;

import dev.voiceplane.kit.validation.Messages;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every provider value the API accepts, in one place so the lists can grow. The neutral words of the
 * interface document ({@code carrierA}, {@code llmA}, ...) are accepted as aliases of the real identifiers.
 */
public final class Providers {

    /**
     * The transcribers of the hosted platform's published SDK ({@code CreateAssistantDtoTranscriber}): the era's
     * deepgram, talkscriber and gladia, and today's.
     */
    public static final Set<String> TRANSCRIBER = sorted("assembly-ai", "azure", "cartesia", "custom-transcriber",
            "deepgram", "11labs", "gladia", "google", "openai", "soniox", "speechmatics", "talkscriber");

    /**
     * The model providers of the published SDK ({@code CreateAssistantDtoModel}), which hold every one of the era's,
     * and {@code azure-openai}: an OpenAI deployment on Azure named directly (the SDK reaches one through an openai
     * model and an azure-openai credential; both work, docs/assistants-and-squads.md).
     */
    public static final Set<String> MODEL = sorted("anthropic", "anthropic-bedrock", "anyscale", "azure-openai",
            "cerebras", "custom-llm", "deep-seek", "deepinfra", "google", "groq", "inflection-ai", "minimax", "openai",
            "openrouter", "perplexity-ai", "together-ai", "xai");

    /** The voices of the published SDK ({@code CreateAssistantDtoVoice}) and the era's {@code neets}. */
    public static final Set<String> VOICE = sorted("azure", "cartesia", "custom-voice", "deepgram", "11labs", "hume",
            "inworld", "lmnt", "minimax", "neets", "neuphonic", "openai", "playht", "rime-ai", "sesame", "smallest-ai",
            "tavus", "vapi", "wellsaid");

    /**
     * Credential providers: the era's, and the published SDK's credentials of the transcribers, models and voices
     * above that take an API key ({@code Create*CredentialDto}); which fields each takes is credential-service's
     * {@code CredentialKind}. Beside them, {@code custom-transcriber} and {@code custom-voice}, which the SDK has no
     * credential for: an operator's own speech server may want one bearer token for every assistant of the
     * organisation, which the runtime sends as {@code Authorization: Bearer} beside the assistant's
     * {@code server.secret}.
     */
    public static final Set<String> CREDENTIAL = sorted("11labs", "anthropic", "anyscale", "assembly-ai", "azure",
            "azure-openai", "cartesia", "cerebras", "custom-llm", "custom-transcriber", "custom-voice", "deep-seek",
            "deepgram", "deepinfra", "gladia",
            "gohighlevel", "google", "groq", "hume", "inflection-ai", "inworld", "lmnt", "make", "minimax", "neuphonic",
            "openai", "openrouter", "perplexity-ai", "playht", "rime-ai", "runpod", "s3", "smallest-ai", "soniox",
            "speechmatics", "tavus", "together-ai", "twilio", "vonage", "wellsaid", "xai");

    /**
     * Credential providers accepted on the wire: the real identifiers and the interface document's neutral words for
     * the providers that take credentials ({@code llmB} has no single real identifier: "any LLM provider", stored as
     * sent and given an API key like one).
     */
    public static final Set<String> CREDENTIAL_ACCEPTED = union(CREDENTIAL,
            Set.of("carrierA", "carrierB", "transcriberA", "llmA", "llmB", "voiceA"));

    public static final Set<String> KNOWLEDGE_BASE = sorted("canonical");

    public static final Set<String> VOICEMAIL_DETECTION = sorted("twilio");

    /** Neutral words of the interface document and the real identifiers they stand for. */
    private static final Map<String, String> ALIASES = Map.of(
            "carrierA", "twilio",
            "carrierB", "vonage",
            "transcriberA", "deepgram",
            "llmA", "openai",
            "voiceA", "azure",
            "kbA", "canonical",
            "billingA", "stripe");

    private Providers() {
    }

    /** The real identifier for a neutral word, or the value itself. */
    public static String canonical(String value) {
        return value == null ? null : ALIASES.getOrDefault(value, value);
    }

    /** The message a client gets for a value outside {@code allowed}: {@code "<field> must be one of ..."}. */
    public static String mustBeOneOf(String field, Set<String> allowed) {
        return field + " " + mustBeOneOf(allowed);
    }

    /** The same message without the field, for a validator whose path is added by the caller. */
    public static String mustBeOneOf(Set<String> allowed) {
        return Messages.mustBeOneOf(allowed);
    }

    private static Set<String> union(Set<String> first, Set<String> second) {
        Set<String> all = new TreeSet<>(first);
        all.addAll(second);
        return java.util.Collections.unmodifiableSet(all);
    }

    private static Set<String> sorted(String... values) {
        return java.util.Collections.unmodifiableSet(new TreeSet<>(Set.of(values)));
    }
}
