package dev.voiceplane.kit.validation;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.util.regex.Pattern;

/** Checks {@link E164}: {@code +} and 8 to 15 ASCII digits. */
public class E164Validator implements ConstraintValidator<E164, String> {

    public static final String REGEX = "\\+[0-9]{8,15}";
    private static final Pattern PATTERN = Pattern.compile(REGEX);

    /** Whether {@code number} is E.164 syntax; {@code null} is not. */
    public static boolean valid(String number) {
        return number != null && PATTERN.matcher(number).matches();
    }

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
        return value == null || valid(value);
    }
}
