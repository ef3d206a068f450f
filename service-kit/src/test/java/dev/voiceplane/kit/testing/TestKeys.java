package dev.voiceplane.kit.testing;

/** API keys of the test organisations. Org C's key is configured only as its SHA-256 hash. */
public final class TestKeys {

    public static final String ORG_A = "org-a";
    public static final String ORG_B = "org-b";
    public static final String ORG_C = "org-c";
    public static final String KEY_A = "key-of-org-a";
    public static final String KEY_B = "key-of-org-b";
    public static final String KEY_C = "key-of-org-c";
    /** The media token key of every test: services issue media tokens with it, the voice runtime checks them. */
    public static final String MEDIA_TOKEN_KEY = "test-media-token-key-0123456789abcdef";

    public static final String INTERNAL_TOKEN = "test-internal-token";

    /** sha256("key-of-org-c") */
    static final String KEY_C_SHA256 = "eceb354f21fe5f35f32226a41588448b53e043dfaf3835daace9d21507acfb2e";

    public static final String CONFIG = ORG_A + ":" + KEY_A + "," + ORG_B + ":" + KEY_B + "," + ORG_C + ":sha256:" + KEY_C_SHA256;

    private TestKeys() {
    }

    public static String bearer(String key) {
        return "Bearer " + key;
    }
}
