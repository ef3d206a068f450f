package dev.voiceplane.kit.validation;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The platform's one E.164 rule: {@code +} and 8 to 15 digits, nothing else. */
class E164Test {

    private final E164Validator validator = new E164Validator();

    @Test
    void plusAndEightToFifteenDigitsAreNumbers() {
        for (String number : new String[] {"+14155550100", "+12345678", "+123456789012345", "+447700900123",
            "+0123456789"}) {
            assertTrue(E164Validator.valid(number), number);
            assertTrue(validator.isValid(number, null), number);
        }
    }

    @Test
    void anythingElseIsNot() {
        for (String number : new String[] {"", "+", "14155550100", "+1234567", "+1234567890123456", "+1 415 555 0100",
            "+1-415-5550100", " +14155550100", "+14155550100 ", "+14155550100\n", "++14155550100", "+١٢٣٤٥٦٧٨٩",
            "+1415555010a", "tel:+14155550100"}) {
            assertFalse(E164Validator.valid(number), number);
            assertFalse(validator.isValid(number, null), number);
        }
        assertFalse(E164Validator.valid(null));
        assertTrue(validator.isValid(null, null), "absence is @NotNull's to refuse");
    }
}
