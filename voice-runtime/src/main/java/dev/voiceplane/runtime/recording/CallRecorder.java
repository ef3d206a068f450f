package dev.voiceplane.runtime.recording;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.media.MediaChannel;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.Map;

/**
 * Records one call as it is heard (docs/voice-runtime.md, "Recordings"): a stereo file (left the caller, right the
 * assistant) and a mono mix, 16-bit PCM WAV at the call's rate, streamed to file-service while the call goes on.
 * The caller's audio comes from the conversation's input; the assistant's from the channel it is sent on
 * ({@link #channel}), placed at its play-out time and cut where a barge-in cleared it. Every
 * {@value #READ_MILLIS} ms the audio that can no longer change is read out into the two uploads. Used on the call's
 * context.
 */
public final class CallRecorder {

    static final long READ_MILLIS = 500;

    private final AudioFormat format;
    private final Context context;
    private final TwoTracks tracks;
    private final RecordingStore store;
    private final String callId;
    private final String orgId;
    private final int partSeconds;
    private final int maxPending;
    private RecordingUpload stereo;
    private RecordingUpload mono;
    private long timer = -1;
    private boolean finished = true;

    CallRecorder(RecordingStore store, Context context, AudioFormat format, String callId, String orgId,
            int partSeconds, int maxPending) {
        this.format = format;
        this.context = context;
        int rate = format.sampleRate();
        this.tracks = new TwoTracks(rate, System.nanoTime());
        this.store = store;
        this.callId = callId;
        this.orgId = orgId;
        this.partSeconds = partSeconds;
        this.maxPending = maxPending;
    }

    /** The call runs (its conversation exists): the uploads start and the audio is read out as it becomes final. */
    public void start() {
        int rate = format.sampleRate();
        stereo = new RecordingUpload(store, context, callId, orgId, "stereo", 2, rate, rate * 4 * partSeconds,
                maxPending);
        mono = new RecordingUpload(store, context, callId, orgId, "mono", 1, rate, rate * 2 * partSeconds, maxPending);
        finished = false;
        timer = context.owner().setPeriodic(READ_MILLIS, id -> readOut(tracks.finalAt(System.nanoTime())));
    }

    /** The caller's audio as the conversation receives it, in the call's format. */
    public void callerAudio(byte[] audio) {
        if (!finished) {
            tracks.caller(format.toPcm(audio), System.nanoTime());
        }
    }

    /** {@code channel} with the assistant's audio and clears recorded on their way out. */
    public MediaChannel channel(MediaChannel channel) {
        return new MediaChannel() {
            @Override
            public AudioFormat format() {
                return channel.format();
            }

            @Override
            public void sendAudio(byte[] frame) {
                if (!finished) {
                    tracks.assistant(format.toPcm(frame), System.nanoTime());
                }
                channel.sendAudio(frame);
            }

            @Override
            public void sendMark(String name) {
                channel.sendMark(name);
            }

            @Override
            public void clear() {
                if (!finished) {
                    tracks.cleared(System.nanoTime());
                }
                channel.clear();
            }

            @Override
            public void sendMessage(Map<String, Object> message) {
                channel.sendMessage(message);
            }

            @Override
            public void close(String reason) {
                channel.close(reason);
            }
        };
    }

    /**
     * The call ended: the audio up to now is read out and both uploads completed. Their URLs, each null when that
     * recording failed (the call's end is reported either way).
     */
    public Future<Recordings> finish() {
        if (finished || stereo == null) {
            return Future.succeededFuture(Recordings.NONE);
        }
        readOut(tracks.sampleAt(System.nanoTime()));
        finished = true;
        context.owner().cancelTimer(timer);
        Future<String> stereoUrl = stereo.finish();
        Future<String> monoUrl = mono.finish();
        return Future.join(stereoUrl, monoUrl).transform(done -> Future.succeededFuture(
                new Recordings(monoUrl.result(), stereoUrl.result())));
    }

    private void readOut(long to) {
        if (finished) {
            return;
        }
        tracks.read(to, (caller, assistant) -> {
            stereo.sample(caller);
            stereo.sample(assistant);
            mono.sample((short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, caller + assistant)));
        });
    }
}
