package dev.voiceplane.kit.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The opening handshake's rules (RFC 6455, 4.2.1) as the runtime and the gateway apply them. */
class WebSocketHandshakesTest {

    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

    private static Function<String, String> headers(String... pairs) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i].toLowerCase(Locale.ROOT), pairs[i + 1]);
        }
        return name -> map.get(name.toLowerCase(Locale.ROOT));
    }

    private static Function<String, String> genuine(String... more) {
        String[] all = new String[6 + more.length];
        System.arraycopy(new String[] {"Upgrade", "websocket", "Connection", "keep-alive, Upgrade",
                "Sec-WebSocket-Version", "13"}, 0, all, 0, 6);
        System.arraycopy(more, 0, all, 6, more.length);
        Function<String, String> base = headers(all);
        return name -> "sec-websocket-key".equalsIgnoreCase(name) && base.apply(name) == null ? KEY : base.apply(name);
    }

    @Test
    void aGenuineHandshakeIsTakenWhateverSubprotocolItOffers() {
        assertTrue(WebSocketHandshakes.asksForUpgrade(genuine()));
        assertEquals(Optional.empty(), WebSocketHandshakes.refusal("GET", genuine()));
        assertEquals(Optional.empty(), WebSocketHandshakes.refusal("GET",
                genuine("Sec-WebSocket-Protocol", "audio, audio.pcm16", "Content-Length", "0")));
    }

    @Test
    void whatAsksForAnUpgrade() {
        assertFalse(WebSocketHandshakes.asksForUpgrade(headers("Upgrade", "websocket")));
        assertFalse(WebSocketHandshakes.asksForUpgrade(headers("Upgrade", "h2c", "Connection", "Upgrade")));
        assertFalse(WebSocketHandshakes.asksForUpgrade(headers("Upgrade", "websocket", "Connection", "upgraded")));
        assertTrue(WebSocketHandshakes.asksForUpgrade(headers("Upgrade", "WebSocket", "Connection", "upgrade")));
    }

    @Test
    void eachBrokenPartIsRefusedWithItsStatusAndHeaders() {
        WebSocketHandshakes.Refusal post = WebSocketHandshakes.refusal("POST", genuine()).orElseThrow();
        assertEquals(405, post.status());
        assertEquals("a WebSocket handshake is a GET, not POST", post.message());
        assertEquals(Map.of("Allow", "GET"), post.headers());

        WebSocketHandshakes.Refusal noVersion = WebSocketHandshakes.refusal("GET",
                headers("Sec-WebSocket-Key", KEY)).orElseThrow();
        assertEquals(400, noVersion.status());
        assertEquals(Map.of("Sec-WebSocket-Version", "13"), noVersion.headers());
        WebSocketHandshakes.Refusal oldVersion = WebSocketHandshakes.refusal("GET",
                headers("Sec-WebSocket-Key", KEY, "Sec-WebSocket-Version", "8")).orElseThrow();
        assertEquals(426, oldVersion.status());
        assertEquals("WebSocket version 8 is not spoken here; use 13", oldVersion.message());
        assertEquals(Map.of("Sec-WebSocket-Version", "13"), oldVersion.headers());

        for (String key : new String[] {null, "", "short", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25jZQ==AAAA",
                "!!!!!!!!!!!!!!!!!!!!!!==", "dGhlIHNhbXBsZSBub25jZXM="}) {
            Function<String, String> headers = headers("Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", key);
            WebSocketHandshakes.Refusal refusal = WebSocketHandshakes.refusal("GET", headers).orElseThrow();
            assertEquals(400, refusal.status(), key);
            assertEquals("a WebSocket handshake needs a Sec-WebSocket-Key of 16 bytes in base64", refusal.message());
        }
        assertEquals(400, WebSocketHandshakes.refusal("GET", genuine("Content-Length", "5")).orElseThrow().status());
        assertEquals(400, WebSocketHandshakes.refusal("GET", genuine("Transfer-Encoding", "chunked")).orElseThrow()
                .status());
    }

    @Test
    void whatTheClientSentIsShownPrintableAndShort() {
        String message = WebSocketHandshakes.refusal("G\u0000T" + "X".repeat(100), genuine()).orElseThrow().message();
        assertEquals("a WebSocket handshake is a GET, not G?T" + "X".repeat(37) + "…", message);
    }
}
