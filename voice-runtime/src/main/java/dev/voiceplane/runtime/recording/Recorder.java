package dev.voiceplane.runtime.recording;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.conversation.CallPlan;
import io.vertx.core.Context;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/** Makes a call's recorder when its assistant asks for a recording (and is not a HIPAA call, which records nothing). */
@ApplicationScoped
public class Recorder {

    private static final Logger LOG = Logger.getLogger(Recorder.class);

    private final RecordingStore store;
    private final int partSeconds;
    private final int maxPending;

    public Recorder(RecordingStore store,
            @ConfigProperty(name = "voice.runtime.recording.part-seconds") int partSeconds,
            @ConfigProperty(name = "voice.runtime.recording.max-pending-parts") int maxPending) {
        this.store = store;
        this.partSeconds = Math.max(1, Math.min(partSeconds, 8));
        this.maxPending = Math.max(1, maxPending);
    }

    public Optional<CallRecorder> open(CallPlan plan, AudioFormat format, Context context) {
        if (plan.sound().recordingEnabled() && plan.sound().hipaaEnabled()) {
            LOG.infof("call %s: recordingEnabled is not honoured: hipaaEnabled records nothing", plan.callId());
        }
        if (!plan.sound().recorded()) {
            return Optional.empty();
        }
        return Optional.of(new CallRecorder(store, context, format, plan.callId().toString(), plan.orgId(),
                partSeconds, maxPending));
    }
}
