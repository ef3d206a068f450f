package dev.voiceplane.file.service;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Cuts a file's extracted text into passages for the knowledge-base search: paragraphs (split at blank lines) are
 * packed together up to {@link #MAX_CHARS}; a longer paragraph is cut between sentences, and a sentence longer still
 * at the last space before the limit. Whitespace runs become one space, so a passage reads as prose in the model's
 * context. A passage is what the model is given, so its size trades context (several facts together) against tokens
 * per turn: {@code topK} (at most 10) passages of at most 700 characters are at most about 1,800 tokens.
 */
public final class PassageCutter {

    public static final int MAX_CHARS = 700;
    private static final Pattern PARAGRAPHS = Pattern.compile("\\n\\s*\\n");
    private static final Pattern SENTENCES = Pattern.compile("(?<=[.!?。？！])\\s+");
    private static final Pattern SPACE = Pattern.compile("\\s+");

    private PassageCutter() {
    }

    public static List<String> cut(String text) {
        List<String> passages = new ArrayList<>();
        if (text == null) {
            return passages;
        }
        StringBuilder current = new StringBuilder();
        for (String paragraph : PARAGRAPHS.split(text)) {
            String clean = SPACE.matcher(paragraph).replaceAll(" ").trim();
            if (clean.isEmpty()) {
                continue;
            }
            if (clean.length() > MAX_CHARS) {
                flush(current, passages);
                cutLong(clean, passages);
                continue;
            }
            if (current.length() > 0 && current.length() + 1 + clean.length() > MAX_CHARS) {
                flush(current, passages);
            }
            if (current.length() > 0) {
                current.append('\n');
            }
            current.append(clean);
        }
        flush(current, passages);
        return passages;
    }

    private static void cutLong(String paragraph, List<String> passages) {
        StringBuilder current = new StringBuilder();
        for (String sentence : SENTENCES.split(paragraph)) {
            // Cut by index, not by taking what is left as a new string each time: that copied the rest of an
            // unpunctuated text once per passage (quadratic; a megabyte of text without a full stop took 70 ms).
            int start = 0;
            int end = sentence.length();
            int trimmedEnd = end;
            while (trimmedEnd > 0 && sentence.charAt(trimmedEnd - 1) <= ' ') {
                trimmedEnd--;
            }
            while ((start == 0 ? end : trimmedEnd) - start > MAX_CHARS) {
                flush(current, passages);
                int cut = sentence.lastIndexOf(' ', start + MAX_CHARS);
                if (cut <= start) {
                    // No space to cut at: cut at the limit, never between the two halves of a surrogate pair.
                    cut = start + (Character.isHighSurrogate(sentence.charAt(start + MAX_CHARS - 1))
                            ? MAX_CHARS - 1
                            : MAX_CHARS);
                }
                passages.add(sentence.substring(start, cut).trim());
                start = cut;
                while (start < trimmedEnd && sentence.charAt(start) <= ' ') {
                    start++;
                }
            }
            String rest = start == 0 ? sentence : sentence.substring(start, Math.max(start, trimmedEnd));
            if (rest.isEmpty()) {
                continue;
            }
            if (current.length() > 0 && current.length() + 1 + rest.length() > MAX_CHARS) {
                flush(current, passages);
            }
            if (current.length() > 0) {
                current.append(' ');
            }
            current.append(rest);
        }
        flush(current, passages);
    }

    private static void flush(StringBuilder current, List<String> passages) {
        if (current.length() > 0) {
            passages.add(current.toString());
            current.setLength(0);
        }
    }
}
