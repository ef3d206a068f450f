package dev.voiceplane.call.api;

import dev.voiceplane.kit.validation.E164;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** The other party of a call: {@code number} in E.164, {@code name} (at most 40 characters), {@code extension}. */
@RegisterForReflection
public record CustomerBody(
        @E164 String number,
        @Size(max = 40) String name,
        @Size(max = 10) @Pattern(regexp = "[0-9*#wW]*", message = "must hold only digits, *, # and w") String extension) {
}
