package dev.voiceplane.kit.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonBodyScreenTest {

    private static List<String> screen(String json) {
        return JsonBodyScreen.problems(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void ordinaryJsonPasses() {
        assertEquals(List.of(), screen("{\"a\": \"x\\\\u0000 is text here\", \"b\": [1e10, 2.5E-300, true, false], \"\\u00e9\": \"\\ud83d\\ude00\"}"));
        assertEquals(List.of(), screen("{\"e\": \"1e99999 inside a string\", \"n\": 1e1000, \"m\": -1E-1000, \"z\": 0e0000000001}"));
    }

    @Test
    void nulAndUnpairedSurrogatesAreFound() {
        assertEquals(List.of("request body contains a \\u0000 character, which cannot be stored"), screen("{\"a\": \"\\u0000\"}"));
        assertEquals(List.of("request body contains an unpaired UTF-16 surrogate (\\udc00)"), screen("[\"\\uDC00\"]"));
        assertEquals(List.of("request body contains an unpaired UTF-16 surrogate (\\ud800)"), screen("[\"\\ud800\"]"));
        assertEquals(List.of("request body contains an unpaired UTF-16 surrogate (\\ud800)"), screen("[\"\\ud800x\"]"));
        assertEquals(List.of("request body contains an unpaired UTF-16 surrogate (\\ud800)"), screen("[\"\\ud800\\n\"]"));
        assertEquals(List.of("request body contains an unpaired UTF-16 surrogate (\\ud800)"), screen("[\"\\ud800\\ud800\\udc00\"]"));
    }

    @Test
    void hugeExponentsAreFound() {
        assertEquals(List.of("request body contains a number whose exponent is beyond 1000"), screen("{\"n\": 1e1001}"));
        assertEquals(List.of("request body contains a number whose exponent is beyond 1000"), screen("[2.5E-200000]"));
        assertEquals(List.of("request body contains a number whose exponent is beyond 1000"), screen("[1e+99999999999999999999]"));
    }

    @Test
    void numbersLongerThanTheReadLimitWhenWrittenOutInFullAreFound() {
        String tooLong = "request body contains a number longer than 2048 characters when written out in full";
        assertEquals(List.of(), screen("[1e1000, -1e1000, 0.5e-1000, -9." + "9".repeat(900) + "e1000]"));
        assertEquals(List.of(tooLong), screen("[1" + "0".repeat(1100) + "e1000]"));
        assertEquals(List.of(tooLong), screen("{\"n\": 0." + "0".repeat(1100) + "1e-1000}"));
        assertEquals(List.of(tooLong), screen("[" + "7".repeat(2040) + "e10]"));
        String tooLongAsSent = "request body contains a number longer than 2048 characters";
        assertEquals(List.of(tooLongAsSent), screen("[" + "7".repeat(2049) + "]"));
        assertEquals(List.of(tooLongAsSent), screen("[0." + "0".repeat(2100) + "1e1000]"));
        assertEquals(List.of(), screen("[" + "7".repeat(2048) + ", -" + "7".repeat(2047) + "]"));
    }

    @Test
    void bytesThatAreNotUtf8AreFound() {
        byte[][] bodies = {
            {'"', (byte) 0xc0, (byte) 0xaf, '"'},
            {'"', (byte) 0xe0, (byte) 0x80, (byte) 0xaf, '"'},
            {'"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"'},
            {'"', (byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"'},
            {'"', (byte) 0x80, '"'},
            {'"', (byte) 0xc3},
        };
        for (byte[] body : bodies) {
            assertEquals(List.of("request body is not valid UTF-8"), JsonBodyScreen.problems(body));
        }
        assertEquals(List.of(), screen("\"é✓😀\""));
    }

    /** Nesting counts objects and arrays open at once, wherever they are; brackets inside strings are text. */
    @Test
    void nestingBeyondTheDepthLimitIsFound() {
        String tooDeep = "request body is nested too deeply: objects and arrays may be nested at most 100 levels "
                + "within one another";
        assertEquals(List.of(), screen("{\"a\":" + "[".repeat(99) + "1" + "]".repeat(99) + "}"));
        assertEquals(List.of(tooDeep), screen("{\"a\":" + "[".repeat(100) + "1" + "]".repeat(100) + "}"));
        assertEquals(List.of(tooDeep), screen("{\"a\":".repeat(999) + "1" + "}".repeat(999)));
        assertEquals(List.of(), screen("[" + "[],".repeat(500) + "{\"s\":\"" + "[{".repeat(300) + "\"}]"));
        assertEquals(List.of(), screen("{\"a\":" + "[".repeat(99) + "\"]]]\\\"[[[\"" + "]".repeat(99) + "}"));
    }
}
