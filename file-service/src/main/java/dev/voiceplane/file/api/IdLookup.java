package dev.voiceplane.file.api;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * Body of {@code POST /internal/file/lookup}: the ids another service wants checked (assistant-service sends at most
 * 1000 per request). The same shape as assistant-service's own lookup; both move to the kit's shared record.
 */
@RegisterForReflection
public record IdLookup(
        @NotNull @Size(max = IdLookup.MAX_IDS, message = "must contain no more than " + IdLookup.MAX_IDS + " elements")
        List<@NotNull String> ids) {

    public static final int MAX_IDS = 1000;
}
