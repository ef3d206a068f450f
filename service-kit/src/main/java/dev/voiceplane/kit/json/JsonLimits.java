package dev.voiceplane.kit.json;

/**
 * Limits the JSON writer and reader share, so that whatever a request may store reads back: {@link JsonBodyScreen}
 * refuses a body beyond them and {@link JsonConventions} configures the reader (request bodies and stored documents
 * alike) with the same values. The depth limit is the screen's alone: the reader keeps Jackson's 1000, so rows
 * stored before it still read.
 */
public final class JsonLimits {

    /**
     * Longest number, in characters, written out in full (no exponent) as PostgreSQL's jsonb gives it back:
     * {@code 1e1000} is 1001 characters, {@code -0.5e-1000} is 1004. Numbers are also limited to an exponent within
     * ±1000, so this only refuses numbers with about a thousand significant digits or more.
     */
    public static final int MAX_NUMBER_LENGTH = 2048;

    /**
     * Deepest nesting of objects and arrays within one another that a request body may have ({@code {}} is 1,
     * {@code {"a":[1]}} is 2). Well below Jackson's own limit of 1000 for reading and for writing: whatever is
     * accepted is later written inside other documents (a list wraps each item in two more levels, a call embeds its
     * assistant or squad, a server message embeds the call), and each of those must still be written, and walked by
     * code that recurses, with room to spare. Issue 24 found a 999-deep {@code metadata} accepted and then failing
     * every answer that held it.
     */
    public static final int MAX_DEPTH = 100;

    private JsonLimits() {
    }
}
