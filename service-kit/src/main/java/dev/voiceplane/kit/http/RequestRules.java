package dev.voiceplane.kit.http;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * The request rules the services and the local gateway apply alike, written once: which {@code X-Request-Id} a caller
 * may give, and how a percent-escape of a request target is read (RFC 3986). Plain Java with no framework, so that
 * the gateway (plain Vert.x, {@code deploy/local}) uses this class itself rather than a copy of its rules.
 */
public final class RequestRules {

    public static final String REQUEST_ID_HEADER = "X-Request-Id";
    private static final Pattern ACCEPTABLE_REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private RequestRules() {
    }

    /** The caller's request id when it is sane (1–128 of {@code A-Za-z0-9._:-}), a new one otherwise. */
    public static String requestId(String offered) {
        return offered != null && ACCEPTABLE_REQUEST_ID.matcher(offered).matches() ? offered : newRequestId();
    }

    /** A random (version 4) UUID: a request id needs to be unique, not unguessable, so no SecureRandom per request. */
    public static String newRequestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & ~(0xC000_0000_0000_0000L)) | 0x8000_0000_0000_0000L;
        return new UUID(high, low).toString();
    }

    /**
     * The byte a percent-escape stands for, {@code text.charAt(at)} being its {@code %}; -1 when the escape is
     * malformed ({@code %zz}, {@code %u0000}, a lone or cut {@code %}).
     */
    public static int escapedByte(CharSequence text, int at) {
        int high = at + 1 < text.length() ? Character.digit(text.charAt(at + 1), 16) : -1;
        int low = at + 2 < text.length() ? Character.digit(text.charAt(at + 2), 16) : -1;
        return high < 0 || low < 0 ? -1 : high * 16 + low;
    }

    /** RFC 3986 unreserved: what an escape may be decoded to without changing what the target means. */
    public static boolean unreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0;
    }
}
