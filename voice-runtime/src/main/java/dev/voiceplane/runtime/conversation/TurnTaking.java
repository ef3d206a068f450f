package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * When the assistant starts speaking after the caller and when the caller's speech stops it, from today's SDK's
 * {@code startSpeakingPlan} and {@code stopSpeakingPlan}, or from the era's {@code responseDelaySeconds} and
 * {@code numWordsToInterruptAssistant} where a plan is absent (docs/voice-runtime.md, "Turn-taking").
 *
 * @param waitSeconds     nothing of a reply is heard before this long after the caller's speech stopped
 *                        ({@code startSpeakingPlan.waitSeconds}, else {@code responseDelaySeconds})
 * @param endpointing     the transcription rules, null unless {@code transcriptionEndpointingPlan} was given
 * @param interruptWords  transcribed words that interrupt the assistant; null: the caller's voice does
 * @param voiceSeconds    how long that voice must last (counted in the caller's audio from the detector's start)
 * @param backoffSeconds  how long after an interruption nothing of the next reply is heard
 * @param acknowledgements phrases that never interrupt (normalised words)
 * @param interruptions   phrases that always interrupt (normalised words)
 * @param notRun          the plan's parts this runtime accepts but does not run (named in the log at the start)
 * @param planned         whether the assistant gave {@code startSpeakingPlan} or {@code stopSpeakingPlan} (a realtime
 *                        model then leaves the caller's turns to the runtime's voice detection)
 */
public record TurnTaking(double waitSeconds, Endpointing endpointing, Integer interruptWords, double voiceSeconds,
        double backoffSeconds, List<List<String>> acknowledgements, List<List<String>> interruptions,
        List<String> notRun, boolean planned) {

    static final double DEFAULT_ON_PUNCTUATION = 0.1;
    static final double DEFAULT_ON_NO_PUNCTUATION = 1.5;
    static final double DEFAULT_ON_NUMBER = 0.5;
    static final double DEFAULT_VOICE_SECONDS = 0.2;
    static final double DEFAULT_BACKOFF_SECONDS = 1.0;

    /** {@code transcriptionEndpointingPlan}: the wait after final words by how they end. */
    public record Endpointing(double onPunctuationSeconds, double onNoPunctuationSeconds, double onNumberSeconds) {

        /**
         * The wait for these words: a number at the end (a trailing full stop or comma after it does not count) waits
         * {@code onNumberSeconds}; else a sentence's end (. ! ? … and their full-width forms) {@code onPunctuationSeconds};
         * else {@code onNoPunctuationSeconds}.
         */
        public double secondsFor(String text) {
            String trimmed = text.strip();
            if (trimmed.isEmpty()) {
                return onNoPunctuationSeconds;
            }
            String bare = trimmed.replaceAll("[.,;:!?。，？！…\\s]+$", "");
            if (!bare.isEmpty() && Character.isDigit(bare.codePointBefore(bare.length()))) {
                return onNumberSeconds;
            }
            int last = trimmed.codePointBefore(trimmed.length());
            return ".!?…。？！".indexOf(last) >= 0 ? onPunctuationSeconds : onNoPunctuationSeconds;
        }
    }

    static TurnTaking read(JsonNode assistant, double responseDelaySeconds, Integer numWordsToInterruptAssistant) {
        JsonNode start = assistant.path("startSpeakingPlan");
        JsonNode stop = assistant.path("stopSpeakingPlan");
        double wait = start.path("waitSeconds").isNumber() ? start.path("waitSeconds").asDouble() : responseDelaySeconds;
        JsonNode rules = start.path("transcriptionEndpointingPlan");
        Endpointing endpointing = rules.isObject()
                ? new Endpointing(number(rules, "onPunctuationSeconds", DEFAULT_ON_PUNCTUATION),
                        number(rules, "onNoPunctuationSeconds", DEFAULT_ON_NO_PUNCTUATION),
                        number(rules, "onNumberSeconds", DEFAULT_ON_NUMBER))
                : null;
        List<String> notRun = new ArrayList<>();
        if (start.path("smartEndpointingPlan").isObject()) {
            notRun.add("startSpeakingPlan.smartEndpointingPlan (" + start.path("smartEndpointingPlan").path("provider")
                    .asText() + ")");
        }
        JsonNode enabled = start.path("smartEndpointingEnabled");
        if (enabled.asBoolean(false) || enabled.isTextual()) {
            notRun.add("startSpeakingPlan.smartEndpointingEnabled");
        }
        if (start.path("customEndpointingRules").isArray() && !start.path("customEndpointingRules").isEmpty()) {
            notRun.add("startSpeakingPlan.customEndpointingRules");
        }
        if (!stop.isObject()) {
            return new TurnTaking(wait, endpointing, numWordsToInterruptAssistant, 0, 0, List.of(), List.of(),
                    List.copyOf(notRun), start.isObject());
        }
        int words = (int) Math.ceil(number(stop, "numWords", 0));
        return new TurnTaking(wait, endpointing, words > 0 ? words : null,
                number(stop, "voiceSeconds", DEFAULT_VOICE_SECONDS), number(stop, "backoffSeconds",
                        DEFAULT_BACKOFF_SECONDS),
                phrases(stop.path("acknowledgementPhrases")), phrases(stop.path("interruptionPhrases")),
                List.copyOf(notRun), true);
    }

    /** Whether the words hold one of the interruption phrases (whole words, case and punctuation aside). */
    public boolean interrupts(String text) {
        List<String> words = words(text);
        for (List<String> phrase : interruptions) {
            for (int i = 0; i + phrase.size() <= words.size(); i++) {
                if (words.subList(i, i + phrase.size()).equals(phrase)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the words are nothing but acknowledgement phrases ("yeah", "yeah okay"); false for no words. */
    public boolean acknowledgementOnly(String text) {
        List<String> words = words(text);
        if (words.isEmpty() || acknowledgements.isEmpty()) {
            return false;
        }
        // covered[i]: the first i words are a sequence of phrases.
        boolean[] covered = new boolean[words.size() + 1];
        covered[0] = true;
        for (int i = 0; i < words.size(); i++) {
            if (!covered[i]) {
                continue;
            }
            for (List<String> phrase : acknowledgements) {
                int end = i + phrase.size();
                if (end <= words.size() && words.subList(i, end).equals(phrase)) {
                    covered[end] = true;
                }
            }
        }
        return covered[words.size()];
    }

    /** Lower case, apostrophes dropped ("don't" = "dont"), anything but letters and digits a word break. */
    static List<String> words(String text) {
        String plain = text.toLowerCase(Locale.ROOT).replaceAll("['’]", "").replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
        return plain.isEmpty() ? List.of() : List.of(plain.split(" "));
    }

    private static List<List<String>> phrases(JsonNode array) {
        List<List<String>> phrases = new ArrayList<>();
        for (JsonNode item : array) {
            if (item.isTextual() && !words(item.asText()).isEmpty()) {
                phrases.add(words(item.asText()));
            }
        }
        return List.copyOf(phrases);
    }

    private static double number(JsonNode node, String field, double fallback) {
        JsonNode value = node.path(field);
        return value.isNumber() ? value.asDouble() : fallback;
    }
}
