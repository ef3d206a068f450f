package dev.voiceplane.runtime.recording;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.conversation.CallPlan;
import dev.voiceplane.runtime.conversation.Conversation;
import dev.voiceplane.runtime.media.MediaChannel;
import io.vertx.core.Context;
import io.vertx.core.Future;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * What sits between a call's conversation and its transport for the assistant's sound settings
 * (docs/voice-runtime.md, "Recordings" and "Other voice settings"): the recorder (it hears what goes out, after the
 * background sound is mixed in, so a recording holds what the caller heard) and the office ambience. Settings the
 * runtime cannot honour are named in a log line at the call's start, never ignored silently.
 */
@ApplicationScoped
public class CallSound {

    private static final Logger LOG = Logger.getLogger(CallSound.class);

    /** The channel the conversation talks to, and the hooks to give the conversation once it exists. */
    public record Attached(MediaChannel channel, Consumer<Conversation> hooks) {
        public void hook(Conversation conversation) {
            hooks.accept(conversation);
        }
    }

    private final Recorder recorder;
    private final java.util.Map<AudioFormat, short[]> ambience = new java.util.concurrent.ConcurrentHashMap<>();

    public CallSound(Recorder recorder) {
        this.recorder = recorder;
    }

    public Attached attach(CallPlan plan, MediaChannel channel, Context context) {
        notHonoured(plan);
        Optional<CallRecorder> recording = recorder.open(plan, channel.format(), context);
        MediaChannel out = recording.map(r -> r.channel(channel)).orElse(channel);
        BackgroundChannel background = "office".equals(plan.sound().backgroundSound())
                ? new BackgroundChannel(out, context.owner(), officeLoop(channel.format())) : null;
        if (background != null) {
            out = background;
        }
        if (recording.isEmpty() && background == null) {
            return new Attached(out, conversation -> { });
        }
        return new Attached(out, conversation -> {
            // Started only once the conversation exists: a call that fails to start leaves no timer or upload.
            recording.ifPresent(CallRecorder::start);
            if (background != null) {
                background.start();
            }
            conversation.record(
                audio -> recording.ifPresent(r -> r.callerAudio(audio)),
                () -> {
                    if (background != null) {
                        background.stop();
                    }
                    return recording.map(CallRecorder::finish).orElse(Future.succeededFuture(Recordings.NONE));
                });
        });
    }

    short[] officeLoop(AudioFormat format) {
        return ambience.computeIfAbsent(format, f -> OfficeAmbience.loop(f.sampleRate()));
    }

    /** One log line per setting asked for that this runtime does not run (the reasons: docs/voice-runtime.md). */
    private static void notHonoured(CallPlan plan) {
        CallPlan.Sound sound = plan.sound();
        if (sound.backchannelingEnabled()) {
            LOG.infof("call %s: backchannelingEnabled is not honoured: no acknowledgements are spoken over the caller"
                    + " (docs/voice-runtime.md, \"Other voice settings\")", plan.callId());
        }
        if (sound.fillerInjectionEnabled()) {
            LOG.infof("call %s: fillerInjectionEnabled is not honoured: no fillers are spoken while the model is slow"
                    + " (docs/voice-runtime.md, \"Other voice settings\")", plan.callId());
        }
        if (sound.emotionRecognitionEnabled()) {
            LOG.infof("call %s: emotionRecognitionEnabled is not honoured: the transcriber (%s) reports no emotion"
                    + " (docs/voice-runtime.md, \"Other voice settings\")", plan.callId(), plan.transcriber().provider());
        }
    }
}
