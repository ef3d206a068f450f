package dev.voiceplane.kit.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiKeyRegistryTest {

    @Test
    void plainAndHashedEntriesResolveToTheirOrganisation() {
        String hash = HexFormat.of().formatHex(ApiKeyRegistry.sha256("s3cret"));
        ApiKeyRegistry keys = ApiKeyRegistry.parse(" acme:k1 , globex:sha256:" + hash.toUpperCase() + ",,");
        assertEquals(Optional.of("acme"), keys.organisationOf("k1"));
        assertEquals(Optional.of("globex"), keys.organisationOf("s3cret"));
        assertEquals(Optional.empty(), keys.organisationOf("sha256:" + hash));
        assertEquals(Optional.empty(), keys.organisationOf("k2"));
    }

    @Test
    void keysMayContainColons() {
        assertEquals(Optional.of("acme"), ApiKeyRegistry.parse("acme:a:b:c").organisationOf("a:b:c"));
    }

    @Test
    void emptyConfigurationAcceptsNothing() {
        assertTrue(ApiKeyRegistry.parse("").isEmpty());
        assertEquals(Optional.empty(), ApiKeyRegistry.parse(null).organisationOf(""));
    }

    @Test
    void malformedEntriesAreRejectedWithoutEchoingSecrets() {
        IllegalArgumentException noKey = assertThrows(IllegalArgumentException.class, () -> ApiKeyRegistry.parse("acme:"));
        assertTrue(noKey.getMessage().contains("entry 1"));
        IllegalArgumentException noOrg = assertThrows(IllegalArgumentException.class,
                () -> ApiKeyRegistry.parse("a:b,topsecretwithoutorg"));
        assertTrue(noOrg.getMessage().contains("entry 2"));
        assertTrue(!noOrg.getMessage().contains("topsecret"));
        assertThrows(IllegalArgumentException.class, () -> ApiKeyRegistry.parse("acme:sha256:abc"));
        assertThrows(IllegalArgumentException.class, () -> ApiKeyRegistry.parse("ac me:key"));
    }
}
