package dev.voiceplane.runtime.recording;

/** A call's recordings as the {@code ended} event carries them; either URL is null when there is none. */
public record Recordings(String recordingUrl, String stereoRecordingUrl) {

    public static final Recordings NONE = new Recordings(null, null);
}
