package dev.voiceplane.file.extract;

/**
 * The outcome of reading a file's text: the text when there was some within the limits, or why there is none
 * (kept for the log; the client sees {@code not_indexed}).
 */
public record Extraction(String text, String notIndexedBecause) {

    public static Extraction indexed(String text) {
        return new Extraction(text, null);
    }

    public static Extraction notIndexed(String reason) {
        return new Extraction(null, reason);
    }

    public boolean isIndexed() {
        return text != null;
    }
}
