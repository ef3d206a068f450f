package dev.voiceplane.runtime.conversation;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts the model's streamed reply into the pieces sent to the voice: a piece ends at a punctuation boundary
 * ({@code voice.inputPunctuationBoundaries}) once it holds at least {@code voice.inputMinCharacters}; a boundary
 * counts when whitespace follows it, so "3.5" or "e.g." inside a word does not cut. What is left at the end of the
 * reply is the last piece.
 */
final class TextChunker {

    private final int minCharacters;
    private final List<String> boundaries;
    private final StringBuilder buffer = new StringBuilder();

    TextChunker(int minCharacters, List<String> boundaries) {
        this.minCharacters = Math.max(1, minCharacters);
        this.boundaries = boundaries;
    }

    List<String> add(String delta) {
        buffer.append(delta);
        List<String> pieces = new ArrayList<>();
        int cut;
        while ((cut = cutPoint()) > 0) {
            String piece = buffer.substring(0, cut).trim();
            buffer.delete(0, cut);
            if (!piece.isEmpty()) {
                pieces.add(piece);
            }
        }
        return pieces;
    }

    String flush() {
        String rest = buffer.toString().trim();
        buffer.setLength(0);
        return rest.isEmpty() ? null : rest;
    }

    /** The end of the first boundary past the minimum that whitespace follows, or 0. */
    private int cutPoint() {
        int leading = 0;
        while (leading < buffer.length() && Character.isWhitespace(buffer.charAt(leading))) {
            leading++;
        }
        for (int i = leading; i < buffer.length() - 1; i++) {
            if (i + 1 - leading < minCharacters) {
                continue;
            }
            for (String boundary : boundaries) {
                if (!boundary.isEmpty() && matchesAt(boundary, i)) {
                    int end = i + boundary.length();
                    if (end < buffer.length() && Character.isWhitespace(buffer.charAt(end))) {
                        return end;
                    }
                }
            }
        }
        return 0;
    }

    private boolean matchesAt(String boundary, int at) {
        if (at + boundary.length() > buffer.length()) {
            return false;
        }
        for (int k = 0; k < boundary.length(); k++) {
            if (buffer.charAt(at + k) != boundary.charAt(k)) {
                return false;
            }
        }
        return true;
    }
}
