package dev.voiceplane.call.delivery;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.EmptyWebhookSecretException;
import com.standardwebhooks.exceptions.WebhookSigningException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Standard Webhooks signatures (1.0.0: {@code v1,<base64 HMAC-SHA256 of "id.timestamp.body">} keyed with the
 * base64-decoded {@code whsec_} secret), computed by the standard's own Java library
 * ({@code com.standardwebhooks:standardwebhooks}, zero dependencies), which receivers use to verify them.
 */
public final class Signatures {

    public static final String ID = "webhook-id";
    public static final String TIMESTAMP = "webhook-timestamp";
    public static final String SIGNATURE = "webhook-signature";

    private Signatures() {
    }

    /**
     * The {@code webhook-signature} value: one {@code v1,...} entry per secret, space-separated (during a rotation's
     * overlap both the new and the old secret sign, so receivers holding either accept the message).
     */
    public static String sign(List<String> secrets, String messageId, long timestampSeconds, String body) {
        return signWith(signers(secrets), messageId, timestampSeconds, body);
    }

    /** The same with the secrets already decoded into signers (kept per organisation, see SigningSecrets). */
    public static String signWith(List<Webhook> signers, String messageId, long timestampSeconds, String body) {
        StringJoiner signatures = new StringJoiner(" ");
        for (Webhook signer : signers) {
            try {
                signatures.add(signer.sign(messageId, timestampSeconds, body));
            } catch (WebhookSigningException | RuntimeException e) {
                throw new IllegalStateException("a signing secret cannot sign", e);
            }
        }
        return signatures.toString();
    }

    /** One signer per {@code whsec_} secret. */
    public static List<Webhook> signers(List<String> secrets) {
        List<Webhook> signers = new ArrayList<>(secrets.size());
        for (String secret : secrets) {
            try {
                signers.add(new Webhook(secret));
            } catch (EmptyWebhookSecretException | RuntimeException e) {
                throw new IllegalStateException("a signing secret cannot sign", e);
            }
        }
        return List.copyOf(signers);
    }
}
