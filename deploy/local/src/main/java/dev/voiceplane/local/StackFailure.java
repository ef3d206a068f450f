package dev.voiceplane.local;

/** Why the local stack cannot run, worded for the person who started it. */
final class StackFailure extends RuntimeException {

    StackFailure(String message) {
        super(message);
    }

    StackFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
