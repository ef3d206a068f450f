package dev.voiceplane.kit.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The write check and the read limit agree (issue 6, item 1), over a few thousand generated numbers around the
 * limits (seeded, so a failure names a number that fails again): every number {@link JsonBodyScreen} lets through
 * is read by the service's mapper, written out in full as jsonb stores it, and read back as the same number; and
 * the screen's idea of "written out in full" is exactly {@code BigDecimal.toPlainString()}.
 */
class ScreenAndReaderAgreeTest {

    private static final ObjectMapper JSON = JsonConventions.apply(new ObjectMapper());
    private static final long SEED = 20261122L;

    @Test
    void whateverTheScreenAcceptsReadsBackAfterBeingStoredAndNothingElseIsAccepted() throws Exception {
        Random random = new Random(SEED);
        int accepted = 0;
        int refusedAsTooLong = 0;
        for (int i = 0; i < 3000; i++) {
            String number = number(random);
            BigDecimal value = new BigDecimal(number);
            boolean screened = JsonBodyScreen.problems(("{\"n\":" + number + "}").getBytes(StandardCharsets.UTF_8))
                    .isEmpty();
            boolean exponentTooLarge = Math.abs(exponent(number)) > JsonBodyScreen.MAX_EXPONENT;
            boolean tooLong = number.length() > JsonLimits.MAX_NUMBER_LENGTH
                    || value.toPlainString().length() > JsonLimits.MAX_NUMBER_LENGTH;
            if (exponentTooLarge) {
                assertFalse(screened, number);
                continue;
            }
            assertEquals(!tooLong, screened, number + " is " + value.toPlainString().length() + " long written out");
            if (tooLong) {
                refusedAsTooLong++;
            }
            if (screened) {
                accepted++;
                String stored = JSON.writeValueAsString(JSON.readTree("{\"n\":" + number + "}"));
                assertEquals(0, value.compareTo(JSON.readTree(stored).get("n").decimalValue()), number);
                // As jsonb gives it back: written out in full, never with an exponent.
                String plain = "{\"n\":" + value.toPlainString() + "}";
                assertEquals(0, value.compareTo(JSON.readTree(plain).get("n").decimalValue()), number);
            }
        }
        // The generator is meant to land on both sides of the limits.
        assertFalse(accepted < 100 || refusedAsTooLong < 20, accepted + " accepted, " + refusedAsTooLong + " too long");
    }

    private static String number(Random random) {
        StringBuilder number = new StringBuilder();
        if (random.nextBoolean()) {
            number.append('-');
        }
        int integerDigits = random.nextInt(4) == 0 ? 1 + random.nextInt(2200) : 1 + random.nextInt(4);
        number.append(random.nextInt(5) == 0 ? "0" : digits(random, integerDigits, true));
        if (random.nextBoolean()) {
            number.append('.').append(digits(random, random.nextInt(4) == 0 ? 1 + random.nextInt(1100)
                    : 1 + random.nextInt(4), false));
        }
        if (random.nextBoolean()) {
            int[] edges = {999, 1000, 1001, 0, 1};
            int exponent = random.nextInt(3) == 0 ? edges[random.nextInt(edges.length)] : random.nextInt(1100);
            number.append(random.nextBoolean() ? 'e' : 'E')
                    .append(new String[] {"", "+", "-"}[random.nextInt(3)])
                    .append(exponent);
        }
        return number.toString();
    }

    private static String digits(Random random, int count, boolean leadingNonZero) {
        StringBuilder digits = new StringBuilder(count);
        for (int i = 0; i < count; i++) {
            digits.append((char) ('0' + (i == 0 && leadingNonZero ? 1 + random.nextInt(9) : random.nextInt(10))));
        }
        return digits.toString();
    }

    private static long exponent(String number) {
        int e = Math.max(number.indexOf('e'), number.indexOf('E'));
        return e < 0 ? 0 : Long.parseLong(number.substring(e + 1));
    }
}
