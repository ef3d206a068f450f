package dev.voiceplane.runtime.provider;

/** A speech-to-speech model ready for one call, with the organisation's credential and the call's audio format. */
public interface RealtimeModel {

    /** Opens the call's session; the listener hears it on the call's context. */
    RealtimeSession open(RealtimeRequest request, RealtimeSession.Listener listener);

    /**
     * Whether its sessions can leave the caller's turns to the runtime's voice detection
     * ({@link RealtimeRequest#runtimeTurns()}); false: the model's own detection always decides.
     */
    default boolean takesRuntimeTurns() {
        return false;
    }
}
