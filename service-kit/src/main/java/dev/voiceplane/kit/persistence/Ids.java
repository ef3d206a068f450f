package dev.voiceplane.kit.persistence;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochGenerator;
import dev.voiceplane.kit.error.ApiException;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/** Resource ids: UUID version 7, time-ordered so that new rows land at the end of the key index. */
public final class Ids {

    /** The one text of an id: as {@link UUID#toString()} writes it. */
    private static final Pattern CANONICAL = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
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

    /**
     * The UUID in a path segment, or empty when it is not one (which callers answer as "not found"). Only the
     * canonical form is an id (36 characters, lower-case hex): {@code UUID.fromString} would also take
     * {@code 1-2-3-4-5} or upper case, and two texts would name one record.
     */
    public static Optional<UUID> parse(String text) {
        if (text == null || !CANONICAL.matcher(text).matches()) {
            return Optional.empty();
        }
        return Optional.of(UUID.fromString(text));
    }
}
