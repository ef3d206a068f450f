package dev.voiceplane.file.extract;

/** The content is neither text nor a document the extractor reads; the message says what it is. */
public class UnsupportedContent extends Exception {

    public UnsupportedContent(String reason) {
        super(reason, null, false, false);
    }
}
