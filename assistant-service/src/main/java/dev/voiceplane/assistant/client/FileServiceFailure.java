package dev.voiceplane.assistant.client;

/**
 * file-service answered with an error status. A 5xx is transient (worth another attempt); a 4xx is not: it
 * means this service asked wrongly (or is configured wrongly) and asking again would get the same answer.
 */
public class FileServiceFailure extends RuntimeException {

    private final int status;

    public FileServiceFailure(int status) {
        super("file-service answered " + status, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** A 5xx: worth retrying. */
    public static final class Transient extends FileServiceFailure {
        public Transient(int status) {
            super(status);
        }
    }

    /** A 4xx (or any other non-success): retrying would not help. */
    public static final class Rejected extends FileServiceFailure {
        public Rejected(int status) {
            super(status);
        }
    }
}
