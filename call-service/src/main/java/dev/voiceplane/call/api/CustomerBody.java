package dev.voiceplane.call.api;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** The other party of a call: {@code number} in E.164, {@code name} (at most 40 characters), {@code extension}. */
@RegisterForReflection
public record CustomerBody(
        @Pattern(regexp = "\\+[1-9][0-9]{1,14}", message = "must be a valid phone number in the E.164 format") String number,
        @Size(max = 40) String name,
        @Size(max = 10) @Pattern(regexp = "[0-9*#wW]*", message = "must hold only digits, *, # and w") String extension) {
}
