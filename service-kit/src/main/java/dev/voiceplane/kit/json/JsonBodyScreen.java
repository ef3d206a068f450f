package dev.voiceplane.kit.json;

import java.util.ArrayList;
import java.util.List;

/**
 * One pass over a JSON body, before Jackson reads it, for what is valid JSON but cannot be stored faithfully:
 * {@code \u0000} (PostgreSQL text and jsonb refuse it), unpaired UTF-16 surrogates (the driver would silently
 * store {@code ?}) and numbers whose exponent is beyond {@value #MAX_EXPONENT} (jsonb's numeric overflows, and
 * writing them out in plain form is unbounded). Anything else malformed is left to Jackson to report.
 */
public final class JsonBodyScreen {

    static final int MAX_EXPONENT = 1000;

    private JsonBodyScreen() {
    }

    /** The problems found, as client messages; empty when the body may be read. */
    public static List<String> problems(byte[] json) {
        List<String> problems = new ArrayList<>();
        boolean inString = false;
        int pendingHighSurrogate = -1;
        for (int i = 0; i < json.length; i++) {
            byte b = json[i];
            if (inString) {
                if (b == '"') {
                    inString = false;
                    pendingHighSurrogate = unpaired(pendingHighSurrogate, problems);
                } else if (b == '\\' && i + 1 < json.length) {
                    if (json[i + 1] == 'u' && i + 5 < json.length) {
                        int unit = hex(json, i + 2);
                        i += 5;
                        if (unit == 0) {
                            add(problems, "request body contains a \\u0000 character, which cannot be stored");
                        }
                        if (unit >= 0xD800 && unit <= 0xDBFF) {
                            pendingHighSurrogate = unpaired(pendingHighSurrogate, problems);
                            pendingHighSurrogate = unit;
                            continue;
                        }
                        if (unit >= 0xDC00 && unit <= 0xDFFF && pendingHighSurrogate < 0) {
                            add(problems, "request body contains an unpaired UTF-16 surrogate (\\u"
                                    + Integer.toHexString(unit) + ")");
                        }
                        pendingHighSurrogate = -1;
                        continue;
                    }
                    i++;
                    pendingHighSurrogate = unpaired(pendingHighSurrogate, problems);
                } else {
                    pendingHighSurrogate = unpaired(pendingHighSurrogate, problems);
                }
            } else if (b == '"') {
                inString = true;
            } else if ((b == 'e' || b == 'E') && i > 0 && isDigitOrDot(json[i - 1])) {
                int start = i + 1;
                if (start < json.length && (json[start] == '+' || json[start] == '-')) {
                    start++;
                }
                int end = start;
                while (end < json.length && json[end] >= '0' && json[end] <= '9') {
                    end++;
                }
                if (end > start && exceeds(json, start, end)) {
                    add(problems, "request body contains a number whose exponent is beyond " + MAX_EXPONENT);
                }
                i = end - 1;
            }
        }
        return problems;
    }

    private static int unpaired(int pendingHighSurrogate, List<String> problems) {
        if (pendingHighSurrogate >= 0) {
            add(problems, "request body contains an unpaired UTF-16 surrogate (\\u"
                    + Integer.toHexString(pendingHighSurrogate) + ")");
        }
        return -1;
    }

    private static boolean exceeds(byte[] json, int start, int end) {
        int digits = 0;
        int value = 0;
        for (int i = start; i < end; i++) {
            if (digits > 0 || json[i] != '0') {
                digits++;
                value = value * 10 + (json[i] - '0');
            }
            if (digits > 4 || value > MAX_EXPONENT) {
                return true;
            }
        }
        return false;
    }

    private static boolean isDigitOrDot(byte b) {
        return (b >= '0' && b <= '9') || b == '.';
    }

    private static int hex(byte[] json, int at) {
        int value = 0;
        for (int i = at; i < at + 4; i++) {
            int digit = Character.digit(json[i], 16);
            if (digit < 0) {
                return -1;
            }
            value = value * 16 + digit;
        }
        return value;
    }

    private static void add(List<String> problems, String problem) {
        if (!problems.contains(problem)) {
            problems.add(problem);
        }
    }
}
