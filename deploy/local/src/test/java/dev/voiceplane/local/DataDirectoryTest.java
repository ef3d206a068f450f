package dev.voiceplane.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectoryTest {

    @TempDir
    Path root;

    @Test
    void aSecretIsGeneratedOnceAndThenKept() {
        AtomicInteger generated = new AtomicInteger();

        String first = new DataDirectory(root).secret("internal-token", () -> "token-" + generated.incrementAndGet());
        String second = new DataDirectory(root).secret("internal-token", () -> "token-" + generated.incrementAndGet());

        assertEquals("token-1", first);
        assertEquals("token-1", second);
    }

    @Test
    void onlyTheOwnerCanReadTheSecrets() throws IOException {
        new DataDirectory(root).secret("internal-token", () -> "token");

        assertEquals("rw-------", PosixFilePermissions.toString(
                Files.getPosixFilePermissions(root.resolve("secrets").resolve("internal-token"))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("secrets"))));
    }

    @Test
    void wipingDeletesWhatTheStackKeeps() throws IOException {
        DataDirectory data = new DataDirectory(root);
        data.secret("internal-token", () -> "token");
        Files.createDirectories(data.postgresData().resolve("base"));
        Files.writeString(data.postgresLog(), "LOG:  database system is ready");

        data.wipe();

        assertFalse(Files.exists(root));
        assertEquals("new-token", data.secret("internal-token", () -> "new-token"));
    }

    @Test
    void wipingRefusesADirectoryWithOtherFiles() throws IOException {
        DataDirectory data = new DataDirectory(root);
        data.secret("internal-token", () -> "token");
        Files.writeString(root.resolve("thesis.tex"), "\\documentclass{article}");

        StackFailure failure = assertThrows(StackFailure.class, data::wipe);

        assertTrue(failure.getMessage().contains("thesis.tex"), failure.getMessage());
        assertTrue(Files.exists(root.resolve("thesis.tex")));
        assertTrue(Files.exists(root.resolve("secrets").resolve("internal-token")));
    }
}
