package dev.voiceplane.contracts.file;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * Body of {@code POST /internal/file/search} (docs/files.md, "Knowledge-base search"): the passages of the
 * organisation's {@code fileIds} that best match {@code query}, at most {@code topK} of them. Ids that are not files
 * of the organisation (or not UUIDs) name nothing; the voice runtime sends a knowledge base's {@code fileIds}, its
 * {@code topK} and the caller's words of the turn.
 */
@RegisterForReflection
public record PassageSearch(
        @NotNull @Size(max = PassageSearch.MAX_FILES, message = "must contain no more than " + PassageSearch.MAX_FILES
                + " elements") List<@NotNull String> fileIds,
        @NotNull @Size(max = PassageSearch.MAX_QUERY, message = "must be at most " + PassageSearch.MAX_QUERY
                + " characters") String query,
        @NotNull @Min(1) @Max(PassageSearch.MAX_TOP_K) Integer topK) {

    public static final int MAX_FILES = 1000;
    public static final int MAX_QUERY = 4000;
    /** The era's bound of {@code model.knowledgeBase.topK}. */
    public static final int MAX_TOP_K = 10;
}
