package dev.voiceplane.runtime.provider;

/**
 * A call's provider that cannot be used: not spoken here (or a setting it cannot run), or the organisation has no key
 * for it. {@code stage} ({@code transcriber}, {@code model}, {@code voice}) and {@code provider} label the metric;
 * the message says why, for the log and the call's transcript.
 */
public final class ProviderFailure extends RuntimeException {

    private final String stage;
    private final String provider;
    private final String kind;

    public ProviderFailure(String stage, String provider, String kind, String message) {
        super(message, null, false, false);
        this.stage = stage;
        this.provider = provider;
        this.kind = kind;
    }

    public String stage() {
        return stage;
    }

    /** The assistant's provider value; {@code assistant} when the stage itself is missing. */
    public String provider() {
        return provider;
    }

    /** {@code unsupported}, {@code no-key} or {@code config}: the metric's kind. */
    public String kind() {
        return kind;
    }
}
