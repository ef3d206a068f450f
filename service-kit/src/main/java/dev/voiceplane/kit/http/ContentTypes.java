package dev.voiceplane.kit.http;

import dev.voiceplane.kit.error.ApiException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Refuses a {@code Content-Type} that is not one media type (RFC 9110: {@code type/subtype *(; name=value)}) with a
 * 415 before the JAX-RS layer parses it, which would fail with a 500 of its own. Whether the endpoint takes that
 * media type is decided later, by JAX-RS (also a 415).
 */
final class ContentTypes {

    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
    private static final String QUOTED = "\"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\t \\x21-\\x7e])*\"";
    private static final Pattern MEDIA_TYPE = Pattern.compile(
            TOKEN + "/" + TOKEN + "(?:[ \\t]*;[ \\t]*" + TOKEN + "=(?:" + TOKEN + "|" + QUOTED + "))*[ \\t]*");

    private ContentTypes() {
    }

    static void check(RoutingContext ctx) {
        List<String> declared = ctx.request().headers().getAll(HttpHeaders.CONTENT_TYPE);
        if (declared.isEmpty()) {
            return;
        }
        if (declared.size() > 1) {
            throw ApiException.unsupportedMediaType("a request has at most one Content-Type header");
        }
        String type = declared.getFirst();
        // Nearly every request says exactly this: no need for the pattern (it showed in the request path's profile).
        if (type.equals("application/json")) {
            return;
        }
        if (!MEDIA_TYPE.matcher(type).matches()) {
            throw ApiException.unsupportedMediaType("Content-Type is not a media type (type/subtype;name=value)");
        }
    }
}
