package dev.voiceplane.contracts.assistant;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;

public class SocketOrHttpUrlValidator implements ConstraintValidator<SocketOrHttpUrl, String> {

    /** Longest address accepted, as for the kit's {@code HttpUrl}. */
    static final int MAX_LENGTH = 2048;

    private static final Set<String> SCHEMES = Set.of("ws", "wss", "http", "https");

    @Override
    public boolean isValid(String value, ConstraintValidatorContext context) {
        if (value == null) {
            return true;
        }
        if (value.length() > MAX_LENGTH || !value.equals(value.strip())) {
            return false;
        }
        try {
            URI uri = new URI(value);
            return uri.getScheme() != null && SCHEMES.contains(uri.getScheme().toLowerCase(Locale.ROOT))
                    && uri.getHost() != null && !uri.getHost().isEmpty();
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
