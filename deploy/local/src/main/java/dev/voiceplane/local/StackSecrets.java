package dev.voiceplane.local;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * The secrets every service is given: the API keys, the internal service token and the encryption keyset. Each
 * comes from the environment when set there, otherwise it is generated once and kept in the data directory.
 */
record StackSecrets(String apiKeys, Optional<String> developmentKey, String internalToken, String encryptionKeyset) {

    /** The organisation of the generated development key. */
    static final String DEVELOPMENT_ORG = "dev-org";

    private static final SecureRandom RANDOM = new SecureRandom();

    static StackSecrets resolve(Map<String, String> environment, DataDirectory data) {
        Optional<String> configuredKeys = StackOptions.value(environment, "VOICE_API_KEYS");
        Optional<String> developmentKey = configuredKeys.isPresent()
                ? Optional.empty()
                : Optional.of(data.secret("dev-api-key", StackSecrets::newToken));
        String apiKeys = configuredKeys.orElseGet(() -> DEVELOPMENT_ORG + ":" + developmentKey.orElseThrow());
        String internalToken = StackOptions.value(environment, "VOICE_INTERNAL_TOKEN")
                .orElseGet(() -> data.secret("internal-token", StackSecrets::newToken));
        String keyset = StackOptions.value(environment, "VOICE_ENCRYPTION_KEYSET")
                .orElseGet(() -> data.secret("encryption-keyset.json", StackSecrets::newKeyset));
        return new StackSecrets(apiKeys, developmentKey, internalToken, keyset);
    }

    /** 256 random bits, URL-safe: usable as a key, a token or a password without quoting. */
    static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String newKeyset() {
        try {
            AeadConfig.register();
            KeysetHandle keyset = KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
            return TinkJsonProtoKeysetFormat.serializeKeyset(keyset, InsecureSecretKeyAccess.get());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Tink cannot generate an AES-256-GCM keyset", e);
        }
    }
}
