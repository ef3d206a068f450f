package dev.voiceplane.file.recording;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /internal/file/recording}: the file name the recording will have, and the format of the parts
 * that follow (16-bit little-endian PCM, {@code channels} interleaved, at {@code sampleRate}).
 */
public record RecordingStart(
        @NotNull @Size(min = 1, max = 255) String name,
        @NotNull Integer channels,
        @NotNull Integer sampleRate) {
}
