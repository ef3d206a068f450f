package dev.voiceplane.runtime.media;

import dev.voiceplane.runtime.audio.AudioFormat;
import java.util.Map;

/**
 * The transport side of one call (a carrier's media stream or a web-call socket), as the conversation sees it.
 * Every method is called on the call's context.
 */
public interface MediaChannel {

    AudioFormat format();

    /** One 20 ms frame of the assistant's audio. */
    void sendAudio(byte[] frame);

    /** A mark after the audio sent so far; the far end names it back once that audio has played. */
    void sendMark(String name);

    /**
     * Whether the far end names each mark back once the audio before it has played (Twilio, web calls). Without
     * (Vonage), the conversation's played-out clock alone says what was heard and when a reply has finished.
     */
    default boolean echoesMarks() {
        return true;
    }

    /** Drops the audio the far end still holds (barge-in). */
    void clear();

    /** A client message (web calls); carriers have no use for them. */
    void sendMessage(Map<String, Object> message);

    /** Closes the stream; for a carrier this ends the call's media (its TwiML has nothing after the stream). */
    void close(String reason);
}
