package dev.voiceplane.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** What the stack keeps between runs ({@code $VOICE_HOME/.local}): PostgreSQL's data, its log, generated secrets. */
final class DataDirectory {

    private static final String POSTGRES_DATA = "pgdata";
    private static final String POSTGRES_LOG = "postgres.log";
    private static final String SECRETS = "secrets";
    private static final Set<String> OWN_ENTRIES = Set.of(POSTGRES_DATA, POSTGRES_LOG, SECRETS);

    private final Path root;

    DataDirectory(Path root) {
        this.root = root;
    }

    Path postgresData() {
        return root.resolve(POSTGRES_DATA);
    }

    Path postgresLog() {
        return root.resolve(POSTGRES_LOG);
    }

    /** Creates the directory; PostgreSQL and the secrets need it to exist. */
    void create() {
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new StackFailure("cannot create the data directory " + root + ": " + e.getMessage(), e);
        }
    }

    /**
     * Deletes everything the stack keeps. Refuses when the directory holds anything the stack did not create, so
     * that a mistaken {@code VOICE_DATA_DIR} cannot wipe someone's files.
     */
    void wipe() {
        if (!Files.isDirectory(root)) {
            return;
        }
        try (Stream<Path> entries = Files.list(root)) {
            List<String> foreign = entries.map(entry -> entry.getFileName().toString())
                    .filter(name -> !OWN_ENTRIES.contains(name))
                    .sorted()
                    .toList();
            if (!foreign.isEmpty()) {
                throw new StackFailure("refusing to wipe " + root + ": it holds " + foreign
                        + ", which the local stack did not create");
            }
        } catch (IOException e) {
            throw new StackFailure("cannot list " + root + ": " + e.getMessage(), e);
        }
        try (Stream<Path> tree = Files.walk(root)) {
            tree.sorted(Comparator.reverseOrder()).forEach(DataDirectory::delete);
        } catch (IOException | UncheckedIOException e) {
            throw new StackFailure("cannot wipe " + root + ": " + e.getMessage(), e);
        }
    }

    /**
     * The secret stored under {@code name}; on first use it is generated and saved, readable by the owner only, so
     * that it stays the same from run to run.
     */
    String secret(String name, Supplier<String> generate) {
        Path directory = root.resolve(SECRETS);
        Path file = directory.resolve(name);
        try {
            if (Files.exists(file)) {
                return Files.readString(file).strip();
            }
            Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
            String value = generate.get().strip();
            Path draft = Files.createTempFile(directory, name, ".draft", PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------")));
            Files.writeString(draft, value);
            // Renamed into place so that an interrupted first run never leaves half a secret behind.
            Files.move(draft, file, StandardCopyOption.ATOMIC_MOVE);
            return value;
        } catch (IOException e) {
            throw new StackFailure("cannot keep the secret " + file + ": " + e.getMessage(), e);
        }
    }

    private static void delete(Path path) {
        try {
            Files.delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
