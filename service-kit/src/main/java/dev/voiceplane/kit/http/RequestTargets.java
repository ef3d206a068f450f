package dev.voiceplane.kit.http;

import dev.voiceplane.kit.error.ApiException;
import io.vertx.ext.web.RoutingContext;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Refuses a request target (path and query) that is not a URI: a character that must be percent-encoded
 * ({@code {x}}, spaces, control characters, anything beyond ASCII), a malformed escape ({@code %zz}, {@code %u0000},
 * a lone {@code %}), or escapes that do not decode to UTF-8: every target Quarkus's own check
 * ({@code java.net.URI}, handed over by {@link TargetCheckHandover}) refused except a path beginning with
 * {@code //}, which the router reads as the path with one slash. Without it, such targets would reach the router
 * or the JAX-RS layer, which answer with an empty 400 or not at all.
 */
final class RequestTargets {

    private RequestTargets() {
    }

    static void check(RoutingContext ctx) {
        String target = ctx.request().uri();
        int query = target.indexOf('?');
        String path = query < 0 ? target : target.substring(0, query);
        check(path, "request path");
        if (query >= 0) {
            check(target.substring(query + 1), "query string");
        }
    }

    private static void check(String part, String what) {
        ByteArrayOutputStream decoded = new ByteArrayOutputStream(part.length());
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '%') {
                int escaped = RequestRules.escapedByte(part, i);
                if (escaped < 0) {
                    throw ApiException.invalid(what + " contains a malformed percent-escape");
                }
                decoded.write(escaped);
                i += 2;
            } else if (allowed(c)) {
                decoded.write(c);
            } else {
                throw ApiException.invalid(what + " contains a character that must be percent-encoded"
                        + (c > 0x20 && c < 0x7f ? ": " + c : ""));
            }
        }
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(decoded.toByteArray()));
        } catch (CharacterCodingException e) {
            throw ApiException.invalid(what + " contains percent-escapes that are not UTF-8");
        }
    }

    /** RFC 3986 unreserved, sub-delims, ":", "@", "/" and "?": what may appear unescaped in a path or query. */
    private static boolean allowed(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || "-._~!$&'()*+,;=:@/?".indexOf(c) >= 0;
    }
}
