package dev.voiceplane.file.recording;

/** An upload in progress: its id, how many parts and bytes of audio it holds so far. */
public record RecordingUploadView(String id, int parts, long bytes) {
}
