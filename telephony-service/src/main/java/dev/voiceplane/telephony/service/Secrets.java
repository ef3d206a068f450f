package dev.voiceplane.telephony.service;

import dev.voiceplane.kit.crypto.SealedFields;
import dev.voiceplane.kit.crypto.SecretBox;
import dev.voiceplane.telephony.domain.Carrier;
import dev.voiceplane.telephony.domain.PhoneNumber;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import org.jboss.logging.Logger;

/** Seals and opens a phone number's secret fields, each tied to its row and field name. */
@Singleton
public class Secrets {

    public static final String AUTH_TOKEN = "twilioAuthToken";
    public static final String SERVER_URL_SECRET = "serverUrlSecret";
    public static final String VONAGE_PRIVATE_KEY = "vonagePrivateKey";
    public static final String CARRIER_ACCOUNT = "carrierAccount";

    private static final Logger LOG = Logger.getLogger(Secrets.class);

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

    /**
     * What {@code carrier_account} stores for the carrier account a number belongs to: a Twilio account SID as it is
     * (an identifier the API shows as {@code twilioAccountSid}), a Vonage API key sealed like the other secrets, as
     * text ({@code sealed:v1:<base64>}, bound to the row), since the API key is a credential secret (write-only).
     * A sealed value cannot be searched for: a Vonage webhook's row is found by its number (or its application) and
     * then checked with {@link #accountIs}.
     */
    public String account(PhoneNumber number, String account) {
        if (number.carrier() != Carrier.VONAGE) {
            return account;
        }
        return SealedFields.PREFIX + Base64.getEncoder().encodeToString(
                box.seal(account.getBytes(StandardCharsets.UTF_8), number.sealingContext(CARRIER_ACCOUNT)));
    }

    /**
     * Whether the number belongs to the carrier account {@code account}: compared with the stored account opened (a
     * value stored before sealing existed is compared as it is). A sealed value that does not open is no match.
     */
    public boolean accountIs(PhoneNumber number, String account) {
        String stored = number.carrierAccount;
        if (stored == null || account == null) {
            return false;
        }
        String plain = stored;
        if (stored.startsWith(SealedFields.PREFIX)) {
            try {
                plain = new String(box.open(Base64.getDecoder().decode(stored.substring(SealedFields.PREFIX.length())),
                        number.sealingContext(CARRIER_ACCOUNT)), StandardCharsets.UTF_8);
            } catch (RuntimeException e) {
                LOG.warnf("the carrier account of phone number %s does not open with this keyset", number.id);
                return false;
            }
        }
        return MessageDigest.isEqual(plain.getBytes(StandardCharsets.UTF_8), account.getBytes(StandardCharsets.UTF_8));
    }
}
