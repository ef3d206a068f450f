package dev.voiceplane.file.extract;

/**
 * What the content of an upload is, as {@link TypeDetector} found it: the MIME type stored as the file's
 * {@code mimetype}, and which reader extracts its text.
 */
public record DetectedType(String mimetype, Reader reader) {

    /** The Tika parser that reads a kind of content. */
    public enum Reader {
        TEXT, HTML, PDF, DOCX, DOC
    }
}
