package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StackOptionsTest {

    @Test
    void defaultsToTheCurrentDirectoryAndTheDocumentedPorts() {
        StackOptions options = StackOptions.parse(List.of(), Map.of());

        Path here = Path.of("").toAbsolutePath();
        assertEquals(here, options.home());
        assertEquals(here.resolve(".local"), options.dataDirectory());
        assertEquals(8080, options.gatewayPort());
        assertEquals(15432, options.postgresPort());
        assertFalse(options.fresh());
        assertFalse(options.help());
    }

    @Test
    void theEnvironmentOverridesTheDefaults() {
        StackOptions options = StackOptions.parse(List.of("--fresh"), Map.of(
                "VOICE_HOME", "/srv/voiceplane",
                "VOICE_HTTP_PORT", "0",
                "VOICE_PG_PORT", "25432"));

        assertEquals(Path.of("/srv/voiceplane"), options.home());
        assertEquals(Path.of("/srv/voiceplane/.local"), options.dataDirectory());
        assertEquals(0, options.gatewayPort());
        assertEquals(25432, options.postgresPort());
        assertTrue(options.fresh());
    }

    @Test
    void theDataDirectoryCanLiveElsewhere() {
        StackOptions options = StackOptions.parse(List.of(), Map.of("VOICE_HOME", "/srv/voiceplane",
                "VOICE_DATA_DIR", "/var/lib/voiceplane"));

        assertEquals(Path.of("/var/lib/voiceplane"), options.dataDirectory());
    }

    @Test
    void aBlankVariableCountsAsUnset() {
        assertEquals(8080, StackOptions.parse(List.of(), Map.of("VOICE_HTTP_PORT", " ")).gatewayPort());
    }

    @Test
    void aPortMustBeAPortNumber() {
        for (String wrong : List.of("http", "-1", "65536", "80a")) {
            StackFailure failure = assertThrows(StackFailure.class,
                    () -> StackOptions.parse(List.of(), Map.of("VOICE_PG_PORT", wrong)));
            assertTrue(failure.getMessage().startsWith("VOICE_PG_PORT must be a port number"), failure.getMessage());
        }
    }

    @Test
    void anUnknownOptionIsRefusedWithTheUsage() {
        StackFailure failure = assertThrows(StackFailure.class, () -> StackOptions.parse(List.of("--frehs"), Map.of()));

        assertTrue(failure.getMessage().contains("unknown option --frehs"));
        assertTrue(failure.getMessage().contains("Usage:"));
    }

    @Test
    void nativeExecutablesAreChosenByFlagOrVariable() {
        assertFalse(StackOptions.parse(List.of(), Map.of()).nativeExecutables());
        assertTrue(StackOptions.parse(List.of("--native"), Map.of()).nativeExecutables());
        assertTrue(StackOptions.parse(List.of(), Map.of("VOICE_NATIVE", "true")).nativeExecutables());
        assertTrue(StackOptions.parse(List.of(), Map.of("VOICE_NATIVE", "1")).nativeExecutables());
        assertFalse(StackOptions.parse(List.of(), Map.of("VOICE_NATIVE", "false")).nativeExecutables());
        StackFailure failure = assertThrows(StackFailure.class,
                () -> StackOptions.parse(List.of(), Map.of("VOICE_NATIVE", "yes")));
        assertEquals("VOICE_NATIVE must be true or false, not 'yes'", failure.getMessage());
    }

    @Test
    void talkIsAFlag() {
        assertFalse(StackOptions.parse(List.of(), Map.of()).talk());
        assertTrue(StackOptions.parse(List.of("--talk", "--fresh"), Map.of()).talk());
        assertTrue(StackOptions.USAGE.contains("--talk"));
    }
}
