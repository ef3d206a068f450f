package dev.voiceplane.kit.json;

/**
 * Limits the JSON writer and reader share, so that whatever a request may store reads back: {@link JsonBodyScreen}
 * refuses a body beyond them and {@link JsonConventions} configures the reader (request bodies and stored documents
 * alike) with the same values.
 */
public final class JsonLimits {

    /**
     * Longest number, in characters, written out in full (no exponent) as PostgreSQL's jsonb gives it back:
     * {@code 1e1000} is 1001 characters, {@code -0.5e-1000} is 1004. Numbers are also limited to an exponent within
     * ±1000, so this only refuses numbers with about a thousand significant digits or more.
     */
    public static final int MAX_NUMBER_LENGTH = 2048;

    private JsonLimits() {
    }
}
