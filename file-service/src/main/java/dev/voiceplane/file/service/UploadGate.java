package dev.voiceplane.file.service;

import dev.voiceplane.kit.error.ApiException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * How many uploads are processed at once (type detection, text extraction, storing): each holds its extracted text
 * and its write buffers in the heap until its row is stored, so with no bound, sixteen 1 MB uploads at once keep
 * about sixteen times that alive and the heap must be sized for the burst. Uploads past the bound wait their turn,
 * first come first served (their bytes are on disk already, nothing of them is in the heap), at most {@code wait};
 * then 503, with nothing stored. Two at once keep two cores busy, as the extractor's two threads do.
 */
public class UploadGate {

    private final Semaphore permits;
    private final long waitNanos;

    public UploadGate(int concurrency, Duration wait) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("voice.file.upload.concurrency must be at least 1, was " + concurrency);
        }
        this.permits = new Semaphore(concurrency, true);
        this.waitNanos = wait.toNanos();
    }

    /** The turn of one upload, given back when closed; 503 when none frees up in time. */
    public Turn enter() {
        boolean entered;
        try {
            entered = permits.tryAcquire(waitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            entered = false;
        }
        if (!entered) {
            throw ApiException.unavailable("too many uploads are being processed at once; try again shortly");
        }
        return new Turn(permits);
    }

    /** Uploads that could start now without waiting. */
    int free() {
        return permits.availablePermits();
    }

    /** One upload's turn; closing it twice gives back one permit. */
    public static final class Turn implements AutoCloseable {
        private final Semaphore permits;
        private boolean closed;

        private Turn(Semaphore permits) {
            this.permits = permits;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                permits.release();
            }
        }
    }
}
