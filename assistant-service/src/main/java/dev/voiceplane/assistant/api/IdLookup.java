package dev.voiceplane.assistant.api;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;

/** Body of {@code POST /internal/assistant/lookup}: the ids another service wants checked. */
@RegisterForReflection
public record IdLookup(
        @NotNull @Size(max = IdLookup.MAX_IDS, message = "must contain no more than " + IdLookup.MAX_IDS + " elements")
        List<@NotNull String> ids) {

    public static final int MAX_IDS = 1000;
}
