package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackSecretsTest {

    @TempDir
    Path root;

    @Test
    void withoutConfigurationADevelopmentKeyAndTheOtherSecretsAreGeneratedOnce() {
        StackSecrets first = StackSecrets.resolve(Map.of(), new DataDirectory(root));
        StackSecrets second = StackSecrets.resolve(Map.of(), new DataDirectory(root));

        String key = first.developmentKey().orElseThrow();
        assertEquals("dev-org:" + key, first.apiKeys());
        assertTrue(key.length() >= 43, key);
        assertEquals(first, second);
        assertNotEquals(first.internalToken(), key);
    }

    @Test
    void theGeneratedKeysetIsATinkKeysetThatEncrypts() throws Exception {
        String keyset = StackSecrets.resolve(Map.of(), new DataDirectory(root)).encryptionKeyset();

        KeysetHandle handle = TinkJsonProtoKeysetFormat.parseKeyset(keyset, InsecureSecretKeyAccess.get());
        Aead aead = handle.getPrimitive(RegistryConfiguration.get(), Aead.class);
        byte[] sealed = aead.encrypt("sk-test".getBytes(StandardCharsets.UTF_8), new byte[0]);
        assertEquals("sk-test", new String(aead.decrypt(sealed, new byte[0]), StandardCharsets.UTF_8));
    }

    @Test
    void theEnvironmentWinsAndNoDevelopmentKeyIsMade() {
        StackSecrets secrets = StackSecrets.resolve(Map.of(
                "VOICE_API_KEYS", "org-a:key-a,org-b:key-b",
                "VOICE_INTERNAL_TOKEN", "internal",
                "VOICE_ENCRYPTION_KEYSET", "{\"primaryKeyId\":1}"), new DataDirectory(root));

        assertEquals(new StackSecrets("org-a:key-a,org-b:key-b", Optional.empty(), "internal", "{\"primaryKeyId\":1}"),
                secrets);
        assertFalse(Files.exists(root.resolve("secrets")));
    }
}
