package dev.voiceplane.call.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceplane.contracts.telephony.PhoneNumberConfiguration;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Where a server message goes, read from a frozen resource or number into a {@link Target}: both spellings of a
 * resource's server, the server object's headers (text only) and timeout, and what counts as no server.
 */
class TargetTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aResourceServerInEitherSpelling() throws Exception {
        Target old = Target.server(JSON.readTree("{\"serverUrl\": \"https://example.com/a\", \"serverUrlSecret\": \"s\"}"))
                .orElseThrow();
        assertEquals(new Target("https://example.com/a", "s", Map.of(), null), old);
        assertEquals("s", old.secret());
        Target object = Target.server(JSON.readTree("""
                {"server": {"url": "https://example.com/b", "headers": {"X-A": "1", "X-N": 2}, "timeoutSeconds": 1.5}}
                """)).orElseThrow();
        assertEquals("https://example.com/b", object.url());
        assertNull(object.secret());
        assertEquals(Map.of("X-A", "1"), object.headers(), "only text headers are sent");
        assertEquals(Duration.ofMillis(1500), object.timeout());
        assertEquals(Optional.empty(), Target.server(JSON.readTree("{\"server\": {\"secret\": \"s\"}}")));
    }

    @Test
    void aNumbersServer() throws Exception {
        PhoneNumberConfiguration number = new PhoneNumberConfiguration("n-1", "org-1", "twilio", "twilio",
                "+15550001111", null, null, "https://example.com/n", "", null, null,
                (ObjectNode) JSON.readTree("{\"X-B\": \"2\"}"), new BigDecimal("2.25"));
        Target target = Target.server(number).orElseThrow();
        assertEquals("https://example.com/n", target.url());
        assertNull(target.secret(), "an empty secret is none");
        assertEquals(Map.of("X-B", "2"), target.headers());
        assertEquals(Duration.ofMillis(2250), target.timeout());
        assertEquals(Duration.ofSeconds(9), new Target("https://example.com/n", null).deadline(Duration.ofSeconds(9)));

        PhoneNumberConfiguration bare = new PhoneNumberConfiguration("n-1", "org-1", "twilio", "twilio",
                "+15550001111", null, null, "https://example.com/n", null, null, null);
        assertEquals(new Target("https://example.com/n", null, Map.of(), null), Target.server(bare).orElseThrow());
        PhoneNumberConfiguration without = new PhoneNumberConfiguration("n-1", "org-1", "twilio", "twilio",
                "+15550001111", null, null, "", "s", null, null);
        assertEquals(Optional.empty(), Target.server(without), "an empty URL is no server");
    }
}
