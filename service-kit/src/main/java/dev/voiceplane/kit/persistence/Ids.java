package dev.voiceplane.kit.persistence;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import dev.voiceplane.kit.error.ApiException;
import java.util.Optional;
import java.util.UUID;

/** Resource ids: UUID version 7, time-ordered so that new rows land at the end of the key index. */
public final class Ids {

    private static final TimeBasedEpochGenerator GENERATOR = Generators.timeBasedEpochGenerator();

    private Ids() {
    }

    public static UUID newId() {
        return GENERATOR.generate();
    }

    /** The id in a path segment of an existing resource; a segment that is not a UUID names nothing: 404. */
    public static UUID existing(String text, String resource) {
        return parse(text).orElseThrow(() -> ApiException.notFound(resource));
    }

    /** The UUID in a path segment, or empty when it is not one (which callers answer as "not found"). */
    public static Optional<UUID> parse(String text) {
        if (text == null || text.length() != 36) {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
