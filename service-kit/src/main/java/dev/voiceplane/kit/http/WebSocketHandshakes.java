package dev.voiceplane.kit.http;

import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a WebSocket opening handshake must hold before anything acts on it (RFC 6455, 4.2.1), written once for the
 * voice runtime's media sockets and the local gateway: a request that asks for an upgrade but cannot complete one is
 * refused in the error shape, before a socket is opened or a call is touched. Plain Java, as {@link RequestRules}.
 *
 * <ul>
 *   <li>another method than {@code GET}: 405, {@code Allow: GET};</li>
 *   <li>no {@code Sec-WebSocket-Version}: 400; another version than 13: 426; both with
 *       {@code Sec-WebSocket-Version: 13};</li>
 *   <li>no {@code Sec-WebSocket-Key}, or one that is not 16 bytes in base64: 400;</li>
 *   <li>a body ({@code Content-Length} other than 0, or {@code Transfer-Encoding}): 400.</li>
 * </ul>
 * Whether the request asks for an upgrade at all ({@code Upgrade: websocket}, {@code Connection: upgrade}) is
 * the caller's to decide; an offered {@code Sec-WebSocket-Protocol} is never a reason to refuse (one that is not
 * spoken is simply not selected).
 */
public final class WebSocketHandshakes {

    /** The only version of the protocol (RFC 6455). */
    public static final String VERSION = "13";
    private static final int KEY_BYTES = 16;
    /** How much of what the client sent goes back into a message. */
    private static final int SHOWN = 40;

    /** Why a handshake cannot be completed: the status, the message, and headers to answer with. */
    public record Refusal(int status, String message, Map<String, String> headers) {
    }

    private WebSocketHandshakes() {
    }

    /** Whether the headers ask for a WebSocket: {@code Upgrade: websocket} and an {@code upgrade} connection option. */
    public static boolean asksForUpgrade(Function<String, String> header) {
        String upgrade = header.apply("Upgrade");
        String connection = header.apply("Connection");
        if (upgrade == null || connection == null || !"websocket".equalsIgnoreCase(upgrade.strip())) {
            return false;
        }
        for (String option : connection.split(",")) {
            if ("upgrade".equals(option.strip().toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why a request that asks for an upgrade cannot complete it, or empty when it can. {@code header} answers a
     * header's (first) value by its case-insensitive name, null when absent.
     */
    public static Optional<Refusal> refusal(String method, Function<String, String> header) {
        if (!"GET".equals(method)) {
            return Optional.of(new Refusal(405, "a WebSocket handshake is a GET, not " + shown(method),
                    Map.of("Allow", "GET")));
        }
        String version = header.apply("Sec-WebSocket-Version");
        if (version == null) {
            return Optional.of(new Refusal(400, "a WebSocket handshake needs Sec-WebSocket-Version: " + VERSION,
                    Map.of("Sec-WebSocket-Version", VERSION)));
        }
        if (!VERSION.equals(version.strip())) {
            return Optional.of(new Refusal(426, "WebSocket version " + shown(version) + " is not spoken here; use "
                    + VERSION, Map.of("Sec-WebSocket-Version", VERSION)));
        }
        if (!validKey(header.apply("Sec-WebSocket-Key"))) {
            return Optional.of(new Refusal(400, "a WebSocket handshake needs a Sec-WebSocket-Key of " + KEY_BYTES
                    + " bytes in base64", Map.of()));
        }
        String length = header.apply("Content-Length");
        if ((length != null && !"0".equals(length.strip())) || header.apply("Transfer-Encoding") != null) {
            return Optional.of(new Refusal(400, "a WebSocket handshake has no body", Map.of()));
        }
        return Optional.empty();
    }

    private static boolean validKey(String key) {
        if (key == null || key.strip().length() != 24) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key.strip()).length == KEY_BYTES;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The client's text as it may appear in a message: printable ASCII, cut short. */
    private static String shown(String text) {
        StringBuilder shown = new StringBuilder();
        for (int i = 0; i < text.length() && shown.length() < SHOWN; i++) {
            char c = text.charAt(i);
            shown.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return text.length() > SHOWN ? shown + "…" : shown.toString();
    }
}
