package dev.voiceplane.telephony.service;

import dev.voiceplane.kit.crypto.SecretBox;
import dev.voiceplane.telephony.domain.PhoneNumber;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;

/** Seals and opens a phone number's secret fields, each tied to its row and field name. */
@Singleton
public class Secrets {

    public static final String AUTH_TOKEN = "twilioAuthToken";
    public static final String SERVER_URL_SECRET = "serverUrlSecret";
    public static final String VONAGE_PRIVATE_KEY = "vonagePrivateKey";

    private final SecretBox box;

    public Secrets(SecretBox box) {
        this.box = box;
    }

    public byte[] seal(PhoneNumber number, String field, String value) {
        return value == null ? null : box.seal(value.getBytes(StandardCharsets.UTF_8), number.sealingContext(field));
    }

    public String open(PhoneNumber number, String field, byte[] sealed) {
        return sealed == null ? null : new String(box.open(sealed, number.sealingContext(field)), StandardCharsets.UTF_8);
    }
}
