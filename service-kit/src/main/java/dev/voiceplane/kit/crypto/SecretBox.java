package dev.voiceplane.kit.crypto;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

/**
 * Authenticated encryption of secrets at rest (Google Tink AEAD, AES-256-GCM). The keyset may hold several
 * keys: new ciphertexts use the primary key, older ones stay readable with the key that wrote them, which
 * is how keys are rotated. The associated data binds a ciphertext to the row it belongs to, so a
 * ciphertext copied into another row (or organisation) does not decrypt.
 */
public final class SecretBox {

    static {
        try {
            AeadConfig.register();
        } catch (GeneralSecurityException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Aead aead;

    private SecretBox(KeysetHandle keyset) throws GeneralSecurityException {
        this.aead = keyset.getPrimitive(RegistryConfiguration.get(), Aead.class);
    }

    /** Opens a keyset in Tink's JSON format, as produced by {@link #generateKeysetJson()} or {@code tinkey}. */
    public static SecretBox fromKeysetJson(String json) {
        try {
            return new SecretBox(TinkJsonProtoKeysetFormat.parseKeyset(json, InsecureSecretKeyAccess.get()));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new IllegalArgumentException("VOICE_ENCRYPTION_KEYSET is not a valid Tink JSON keyset", e);
        }
    }

    /** A new keyset with one AES-256-GCM key, in Tink's JSON format. */
    public static String generateKeysetJson() {
        try {
            KeysetHandle handle = KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
            return TinkJsonProtoKeysetFormat.serializeKeyset(handle, InsecureSecretKeyAccess.get());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a keyset", e);
        }
    }

    /** Encrypts {@code plaintext} for the row described by {@code context} (e.g. {@code "credential:<org>:<id>"}). */
    public byte[] seal(byte[] plaintext, String context) {
        try {
            return aead.encrypt(plaintext, context.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encryption failed", e);
        }
    }

    public byte[] open(byte[] ciphertext, String context) {
        try {
            return aead.decrypt(ciphertext, context.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a stored secret cannot be decrypted with the configured keyset", e);
        }
    }
}
