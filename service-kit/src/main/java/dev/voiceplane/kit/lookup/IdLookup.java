package dev.voiceplane.kit.lookup;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;

/** Body of every {@code POST /internal/<resource>/lookup}: the ids another service wants checked (at most {@value #MAX_IDS}). */
@RegisterForReflection
public record IdLookup(
        @NotNull @Size(max = IdLookup.MAX_IDS, message = "must contain no more than " + IdLookup.MAX_IDS + " elements")
        List<@NotNull String> ids) {

    public static final int MAX_IDS = 1000;
}
