package dev.voiceplane.file.api;

import jakarta.validation.constraints.Size;

/** Body of {@code PATCH /file/{id}}: only the name can change. */
public record FileUpdate(@Size(min = 1, max = 40) String name) {
}
