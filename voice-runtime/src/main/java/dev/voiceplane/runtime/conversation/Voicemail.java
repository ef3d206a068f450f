package dev.voiceplane.runtime.conversation;

import dev.voiceplane.runtime.audio.ToneDetector;
import io.vertx.core.Vertx;
import org.jboss.logging.Logger;

/**
 * Leaving the assistant's {@code voicemailMessage} on an answering machine (docs/voice-runtime.md, "Voicemail"). Once
 * call-service says the carrier's detection heard a machine, the call stops being a conversation and waits for the
 * right moment to speak: the beep (a steady tone, {@link ToneDetector}), or the end of the greeting (no speech for
 * {@value #GREETING_END_MILLIS} ms after some was heard), or at once when the carrier waited for the greeting's end
 * itself ({@code machine_end_*}); at the latest {@value #MAX_WAIT_MILLIS} ms after the detection, so that an endless
 * greeting does not keep the line. Then the message is spoken and the call ends {@code voicemail} once it played.
 * Called on the call's context only.
 */
final class Voicemail {

    private static final Logger LOG = Logger.getLogger(Voicemail.class);
    static final long GREETING_END_MILLIS = 2_000;
    static final long MAX_WAIT_MILLIS = 30_000;

    private enum State { OFF, LISTENING, SPEAKING }

    private final Vertx vertx;
    private final Object callId;
    private final ToneDetector tone;
    private final Runnable speak;
    private State state = State.OFF;
    private boolean speechHeard;
    private long silenceTimer = -1;
    private long maxTimer = -1;

    Voicemail(Vertx vertx, Object callId, int sampleRate, Runnable speak) {
        this.vertx = vertx;
        this.callId = callId;
        this.tone = new ToneDetector(sampleRate);
        this.speak = speak;
    }

    /** Whether the call belongs to the machine now: no turns, no interruptions. */
    boolean active() {
        return state != State.OFF;
    }

    boolean listening() {
        return state == State.LISTENING;
    }

    /** A machine answered ({@code answeredBy} as the carrier said); {@code callerSpeaking}: the greeting plays now. */
    void detected(String answeredBy, boolean callerSpeaking) {
        if (state != State.OFF) {
            if (state == State.LISTENING && answeredBy != null && answeredBy.startsWith("machine_end")) {
                ready("the carrier heard the greeting end (" + answeredBy + ")");
            }
            return;
        }
        state = State.LISTENING;
        LOG.infof("call %s: a machine answered (%s); the voicemail message waits for the beep", callId, answeredBy);
        if (answeredBy != null && answeredBy.startsWith("machine_end")) {
            ready("the carrier heard the greeting end (" + answeredBy + ")");
            return;
        }
        speechHeard = callerSpeaking;
        maxTimer = vertx.setTimer(MAX_WAIT_MILLIS, id -> {
            maxTimer = -1;
            ready("no beep nor end of the greeting within " + MAX_WAIT_MILLIS + " ms");
        });
        if (!callerSpeaking) {
            armSilence();
        }
    }

    /** The machine's audio, decoded, while listening. */
    void audio(short[] pcm) {
        if (state == State.LISTENING && tone.audio(pcm)) {
            ready("the beep");
        }
    }

    /** Voice activity of the machine's greeting. */
    void speech(boolean started) {
        if (state != State.LISTENING) {
            return;
        }
        if (started) {
            speechHeard = true;
            cancel(silenceTimer);
            silenceTimer = -1;
        } else {
            armSilence();
        }
    }

    private void armSilence() {
        cancel(silenceTimer);
        silenceTimer = vertx.setTimer(GREETING_END_MILLIS, id -> {
            silenceTimer = -1;
            if (speechHeard) {
                ready("the greeting ended");
            }
        });
    }

    private void ready(String why) {
        if (state != State.LISTENING) {
            return;
        }
        state = State.SPEAKING;
        cancel(silenceTimer);
        cancel(maxTimer);
        LOG.infof("call %s: leaving the voicemail message after %s", callId, why);
        speak.run();
    }

    void close() {
        cancel(silenceTimer);
        cancel(maxTimer);
    }

    private void cancel(long timer) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }
}
