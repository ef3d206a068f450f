package dev.voiceplane.file.api;

/**
 * {@code GET /internal/file/{id}/text}: a file's extracted text, for the voice runtime's knowledge base; {@code text}
 * is omitted when the file is {@code not_indexed}.
 */
public record FileTextView(String id, String status, String mimetype, String text) {
}
