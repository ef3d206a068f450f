package dev.voiceplane.kit.json;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One pass over a JSON body, before Jackson reads it, for what Jackson would accept but cannot be stored and read
 * back faithfully: bytes that are not UTF-8 (Jackson decodes overlong forms such as {@code C0 AF} as {@code /}),
 * {@code \u0000} (PostgreSQL text and jsonb refuse it), unpaired UTF-16 surrogates (the driver would silently store
 * {@code ?}), numbers whose exponent is beyond {@value #MAX_EXPONENT} (jsonb's numeric overflows, and writing them
 * out in plain form is unbounded) and numbers longer than {@link JsonLimits#MAX_NUMBER_LENGTH} characters when
 * written out in full, as jsonb gives them back (the JSON reader's limit: whatever passes here reads back), and
 * objects and arrays nested deeper than {@link JsonLimits#MAX_DEPTH} (whatever passes can be answered, listed and
 * embedded in other documents, such as a server message). Anything else malformed is left to Jackson to report.
 */
public final class JsonBodyScreen {

    static final int MAX_EXPONENT = 1000;

    static final String TOO_DEEP = "request body is nested too deeply: objects and arrays may be nested at most "
            + JsonLimits.MAX_DEPTH + " levels within one another";

    private JsonBodyScreen() {
    }

    /** The problems found, as client messages; empty when the body may be read. */
    public static List<String> problems(byte[] json) {
        List<String> problems = new ArrayList<>();
        if (!isUtf8(json)) {
            problems.add("request body is not valid UTF-8");
            return problems;
        }
        boolean inString = false;
        int pendingHighSurrogate = -1;
        int depth = 0;
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
            } else if (b == '{' || b == '[') {
                if (++depth > JsonLimits.MAX_DEPTH) {
                    add(problems, TOO_DEEP);
                }
            } else if (b == '}' || b == ']') {
                depth--;
            } else if (b == '-' || (b >= '0' && b <= '9')) {
                i = number(json, i, problems) - 1;
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

    /**
     * Checks the number token starting at {@code start} ({@code -? int frac? exp?}, as far as it is well formed)
     * and returns where it ends.
     */
    private static int number(byte[] json, int start, List<String> problems) {
        int i = start;
        boolean negative = json[i] == '-';
        if (negative) {
            i++;
        }
        int significant = 0;
        int fraction = 0;
        boolean inFraction = false;
        for (; i < json.length; i++) {
            byte b = json[i];
            if (b >= '0' && b <= '9') {
                if (significant > 0 || b != '0') {
                    significant++;
                }
                if (inFraction) {
                    fraction++;
                }
            } else if (b == '.' && !inFraction) {
                inFraction = true;
            } else {
                break;
            }
        }
        long exponent = 0;
        if (i < json.length && (json[i] == 'e' || json[i] == 'E')) {
            int expStart = i + 1;
            if (expStart < json.length && (json[expStart] == '+' || json[expStart] == '-')) {
                expStart++;
            }
            int expEnd = expStart;
            while (expEnd < json.length && json[expEnd] >= '0' && json[expEnd] <= '9') {
                expEnd++;
            }
            if (expEnd > expStart && exceeds(json, expStart, expEnd)) {
                add(problems, "request body contains a number whose exponent is beyond " + MAX_EXPONENT);
                return expEnd;
            }
            if (expEnd > expStart) {
                exponent = Long.parseLong(new String(json, expStart, expEnd - expStart, StandardCharsets.US_ASCII));
                if (json[i + 1] == '-') {
                    exponent = -exponent;
                }
            }
            i = expEnd;
        }
        if (i - start > JsonLimits.MAX_NUMBER_LENGTH) {
            add(problems, "request body contains a number longer than " + JsonLimits.MAX_NUMBER_LENGTH + " characters");
        } else if (plainLength(negative, significant, fraction - exponent) > JsonLimits.MAX_NUMBER_LENGTH) {
            add(problems, "request body contains a number longer than " + JsonLimits.MAX_NUMBER_LENGTH
                    + " characters when written out in full");
        }
        return i;
    }

    /**
     * Length of {@code BigDecimal.toPlainString()} (which is also how PostgreSQL writes a jsonb number) of a number
     * with this many significant digits and this scale (digits after the point; negative for trailing zeros).
     */
    static long plainLength(boolean negative, int significant, long scale) {
        long digits = Math.max(1, significant);
        long length;
        if (scale <= 0) {
            length = significant == 0 ? 1 : digits - scale;
        } else if (digits > scale) {
            length = digits + 1;
        } else {
            length = 2 + scale;
        }
        return negative ? length + 1 : length;
    }

    private static boolean isUtf8(byte[] json) {
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(json));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
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
