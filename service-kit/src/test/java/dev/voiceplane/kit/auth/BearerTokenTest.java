package dev.voiceplane.kit.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class BearerTokenTest {

    @Test
    void onlyANonEmptyBearerTokenIsTaken() {
        assertEquals(Optional.of("abc"), Authentication.bearerToken("Bearer abc"));
        assertEquals(Optional.of("abc"), Authentication.bearerToken("bearer   abc "));
        assertEquals(Optional.empty(), Authentication.bearerToken("Bearer "));
        assertEquals(Optional.empty(), Authentication.bearerToken("Basic abc"));
        assertEquals(Optional.empty(), Authentication.bearerToken("abc"));
        assertEquals(Optional.empty(), Authentication.bearerToken(null));
    }
}
