package dev.voiceplane.local;

import dev.voiceplane.kit.http.RequestRules;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The path the gateway routes on, normalised as the services' router sees it (RFC 3986): escapes of unreserved
 * characters decoded ({@code %2e} is {@code .}), other escapes upper-cased and kept, dot segments removed
 * ({@code /a/../b} is {@code /b}). A malformed escape ({@code %zz}, {@code %u0000}, a lone {@code %}) is refused.
 */
final class RequestPaths {

    private RequestPaths() {
    }

    /** @throws IllegalArgumentException for a malformed percent-escape */
    static String normalise(String path) {
        if (path.startsWith("/") && path.indexOf('%') < 0 && !path.contains("/.")) {
            return path; // nothing to decode and no dot segment: the usual request, routed as it came
        }
        return removeDotSegments(decodeUnreserved(path));
    }

    private static String decodeUnreserved(String path) {
        StringBuilder decoded = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c != '%') {
                decoded.append(c);
                continue;
            }
            int escaped = RequestRules.escapedByte(path, i);
            if (escaped < 0) {
                throw new IllegalArgumentException("malformed percent-escape in " + path);
            }
            if (RequestRules.unreserved((char) escaped)) {
                decoded.append((char) escaped);
            } else {
                decoded.append('%').append(path.substring(i + 1, i + 3).toUpperCase(Locale.ROOT));
            }
            i += 2;
        }
        return decoded.toString();
    }

    private static String removeDotSegments(String path) {
        Deque<String> segments = new ArrayDeque<>();
        String[] parts = path.split("/", -1);
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i];
            boolean last = i == parts.length - 1;
            if (part.equals(".")) {
                if (last) {
                    segments.addLast("");
                }
            } else if (part.equals("..")) {
                if (segments.size() > 1) {
                    segments.removeLast();
                }
                if (last) {
                    segments.addLast("");
                }
            } else {
                segments.addLast(part);
            }
        }
        String joined = String.join("/", segments);
        return joined.startsWith("/") ? joined : "/" + joined;
    }
}
