package dev.voiceplane.runtime.recording;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.Arrays;
import org.jboss.logging.Logger;

/**
 * One recording (the mono mix or the stereo file) on its way to file-service: audio is gathered into parts of
 * {@code partBytes} and each is sent as soon as it is full, from a worker, in order (the call's context's ordered
 * blocking queue). At most {@code maxPending} parts may wait for file-service: a slower file-service ends the
 * recording (logged, abandoned) rather than let the call's memory grow. Used on the call's context.
 */
final class RecordingUpload {

    private static final Logger LOG = Logger.getLogger(RecordingUpload.class);

    private final RecordingStore store;
    private final Context context;
    private final String callId;
    private final String orgId;
    private final String kind;
    private final int partBytes;
    private final int maxPending;
    private byte[] buffer;
    private int length;
    private int nextSeq;
    private int pending;
    private volatile String id;
    private volatile String failure;

    RecordingUpload(RecordingStore store, Context context, String callId, String orgId, String kind, int channels,
            int rate, int partBytes, int maxPending) {
        this.store = store;
        this.context = context;
        this.callId = callId;
        this.orgId = orgId;
        this.kind = kind;
        this.partBytes = partBytes;
        this.maxPending = maxPending;
        this.buffer = new byte[partBytes];
        String name = callId + "-" + kind + ".wav";
        blocking(() -> id = store.start(orgId, name, channels, rate));
    }

    /** One 16-bit sample, little-endian. */
    void sample(short value) {
        if (failure != null) {
            return;
        }
        buffer[length++] = (byte) value;
        buffer[length++] = (byte) (value >> 8);
        if (length == partBytes) {
            send();
        }
    }

    /** Sends what is gathered, then completes the upload: its URL, or null when the recording failed. */
    Future<String> finish() {
        if (failure == null && length > 0) {
            send();
        }
        return context.executeBlocking(() -> {
            if (failure != null || id == null) {
                abandonQuietly();
                return null;
            }
            return store.complete(orgId, id);
        }, true).otherwise(error -> {
            fail("it could not be completed: " + error.getMessage());
            return null;
        });
    }

    private void send() {
        if (pending >= maxPending) {
            fail("file-service fell " + pending + " parts behind");
            return;
        }
        byte[] part = Arrays.copyOf(buffer, length);
        int seq = nextSeq++;
        length = 0;
        pending++;
        blocking(() -> {
            if (id != null && failure == null) {
                store.part(orgId, id, seq, part);
            }
        }).onComplete(done -> pending--);
    }

    private Future<Void> blocking(Runnable work) {
        return context.<Void>executeBlocking(() -> {
            work.run();
            return null;
        }, true).onFailure(error -> fail(error.getMessage()));
    }

    private void fail(String why) {
        if (failure == null) {
            failure = why;
            buffer = new byte[0];
            length = 0;
            LOG.warnf("call %s: the %s recording stops: %s", callId, kind, why);
        }
    }

    private void abandonQuietly() {
        if (id != null) {
            try {
                store.abandon(orgId, id);
            } catch (RuntimeException e) {
                LOG.debugf("call %s: the %s recording's upload is left to file-service's sweep: %s", callId, kind,
                        e.getMessage());
            }
        }
    }
}
