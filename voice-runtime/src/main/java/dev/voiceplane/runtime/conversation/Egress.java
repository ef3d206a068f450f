package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.media.MediaChannel;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;

/**
 * The assistant's audio on its way out: cut into 20 ms frames and paced so that the far end never holds more than
 * {@code leadMillis} of it (so a barge-in's {@code clear} leaves nothing to play), with the first frames sent at
 * once. Marks follow each piece of speech; the playhead (when everything sent will have played) tells what the
 * caller has heard. Runs on the call's context.
 */
final class Egress {

    /** Told when the first frame of the current output goes out (pieces are told when they start and end). */
    interface Timeline {
        /** The first frame of the current output went out (after {@link #resetFirstFrame}). */
        void firstFrameSent(long nanos);
    }

    private record Frame(byte[] audio, Turn.Piece piece) {
    }

    private record Mark(String name, Turn.Piece piece) {
    }

    private static final long FRAME_NANOS = 20_000_000L;

    private final MediaChannel channel;
    private final Vertx vertx;
    private final Timeline timeline;
    private final int frameBytes;
    private final long leadNanos;
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private byte[] partial;
    private int partialLength;
    private Turn.Piece partialPiece;
    private Turn.Piece lastStartedPiece;
    private long playheadNanos;
    private long holdUntilNanos;
    private long timer = -1;
    private long firstFrameSentNanos;

    Egress(MediaChannel channel, Vertx vertx, Timeline timeline, long leadMillis) {
        this.channel = channel;
        this.vertx = vertx;
        this.timeline = timeline;
        this.frameBytes = channel.format().frameBytes();
        this.leadNanos = leadMillis * 1_000_000L;
    }

    /** Nothing goes out before {@code nanos} (the response delay after the caller stopped). */
    void holdUntil(long nanos) {
        holdUntilNanos = nanos;
    }

    /** A held output ({@link Turn#HELD}) goes out from {@code nanos}. */
    void release(long nanos) {
        holdUntilNanos = nanos;
        cancelTimer();
        pump();
    }

    void audio(byte[] bytes, Turn.Piece piece) {
        int offset = 0;
        while (offset < bytes.length) {
            if (partial == null) {
                partial = new byte[frameBytes];
                partialLength = 0;
                partialPiece = piece;
            }
            int take = Math.min(frameBytes - partialLength, bytes.length - offset);
            System.arraycopy(bytes, offset, partial, partialLength, take);
            partialLength += take;
            offset += take;
            if (partialLength == frameBytes) {
                queue.add(new Frame(partial, partialPiece));
                partial = null;
            }
        }
        pump();
    }

    /** Ends a piece: its last partial frame is padded with silence and a mark follows it. */
    void mark(String name, Turn.Piece piece) {
        if (partial != null) {
            byte[] silence = channel.format().silence();
            System.arraycopy(silence, partialLength, partial, partialLength, frameBytes - partialLength);
            queue.add(new Frame(partial, partialPiece));
            partial = null;
        }
        queue.add(new Mark(name, piece));
        pump();
    }

    /** Drops everything not yet sent and tells the far end to drop what it holds. */
    void clear() {
        queue.clear();
        partial = null;
        cancelTimer();
        channel.clear();
        playheadNanos = System.nanoTime();
        lastStartedPiece = null;
    }

    /** Whether audio is still queued here or playing at the far end. */
    boolean playing() {
        return !queue.isEmpty() || partial != null || playheadNanos > System.nanoTime();
    }

    long playheadNanos() {
        return playheadNanos;
    }

    /** When everything queued so far will have played: what is sent, then the queue after any hold. */
    long drainsAtNanos() {
        if (holdUntilNanos == Turn.HELD) {
            return Turn.HELD;
        }
        long now = System.nanoTime();
        long frames = queue.stream().filter(item -> item instanceof Frame).count() + (partial != null ? 1 : 0);
        long start = Math.max(playheadNanos, frames > 0 ? Math.max(now, holdUntilNanos) : now);
        return start + frames * FRAME_NANOS;
    }

    /** When the first frame of the current output went out (0 before). */
    long firstFrameSentNanos() {
        return firstFrameSentNanos;
    }

    void resetFirstFrame() {
        firstFrameSentNanos = 0;
    }

    void stop() {
        queue.clear();
        partial = null;
        cancelTimer();
    }

    private void pump() {
        if (timer >= 0) {
            return;
        }
        long now = System.nanoTime();
        if (holdUntilNanos == Turn.HELD) {
            return; // a preemptive reply: released, or dropped, once the caller's turn is decided
        }
        if (now < holdUntilNanos) {
            schedule(holdUntilNanos - now);
            return;
        }
        if (playheadNanos < now) {
            playheadNanos = now;
        }
        while (!queue.isEmpty()) {
            Object head = queue.peek();
            if (head instanceof Mark mark) {
                queue.poll();
                channel.sendMark(mark.name());
                mark.piece().queued(playheadNanos);
                continue;
            }
            if (playheadNanos - now >= leadNanos) {
                break;
            }
            Frame frame = (Frame) queue.poll();
            if (frame.piece() != lastStartedPiece) {
                lastStartedPiece = frame.piece();
                frame.piece().starts(playheadNanos);
            }
            frame.piece().framePlays(playheadNanos);
            if (firstFrameSentNanos == 0) {
                firstFrameSentNanos = now;
                timeline.firstFrameSent(now);
            }
            channel.sendAudio(frame.audio());
            playheadNanos += FRAME_NANOS;
        }
        if (!queue.isEmpty()) {
            schedule(Math.max(1_000_000L, playheadNanos - leadNanos - now + 1_000_000L));
        }
    }

    private void schedule(long delayNanos) {
        timer = vertx.setTimer(Math.max(1, delayNanos / 1_000_000L), id -> {
            timer = -1;
            pump();
        });
    }

    private void cancelTimer() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }
}
