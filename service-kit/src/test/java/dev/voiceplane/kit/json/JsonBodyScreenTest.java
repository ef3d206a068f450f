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
}
