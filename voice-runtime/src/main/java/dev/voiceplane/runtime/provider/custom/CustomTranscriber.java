package dev.voiceplane.runtime.provider.custom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.audio.Resampler;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSocket;
import dev.voiceplane.runtime.provider.SpeechToText;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The customer's own transcription server, spoken to as the hosted platform does ("custom transcriber"): a WebSocket
 * to {@code transcriber.server.url} (its {@code secret} in {@code x-vapi-secret}, its {@code headers} with the upgrade),
 * a first text frame {@code {"type":"start","encoding":"linear16","container":"raw","sampleRate":16000,"channels":2}},
 * then the call's audio as binary frames of 16-bit little-endian PCM at 16 kHz, two interleaved channels: the customer
 * (the caller) in channel 0, the assistant in channel 1. The runtime gives its transcriber the caller's audio only, so
 * channel 1 is silence; the format is the hosted platform's so that a server written for it works unchanged (μ-law
 * phone audio is decoded and resampled to 16 kHz).
 *
 * <p>The server answers {@code {"type":"transcriber-response","transcription":"…","channel":"customer"|"assistant"}}:
 * the customer's transcriptions are the caller's segments ({@code assistant} ones are not the caller's and are
 * dropped); one that comes after the caller stopped speaking ends the turn, one that comes while the caller still
 * speaks waits for the rest of the turn. The protocol has no end-of-speech message, so nothing is sent when the
 * caller stops. {@code {"type":"error"}} from the server, a frame that is not JSON, a refused upgrade or a close the
 * runtime did not ask for fail the stage. A server that accepts and then never transcribes cannot be told from one
 * that heard no words: the call goes on (its silence timeout ends it).
 */
final class CustomTranscriber extends ProviderSocket implements SpeechToText {

    private static final Logger LOG = Logger.getLogger(CustomTranscriber.class);
    static final int SAMPLE_RATE = 16000;

    private final Listener listener;
    private final ObjectMapper json;
    private final AudioFormat format;
    private long bytesSent;
    private boolean callerStopped;

    private CustomTranscriber(Context context, AudioFormat format, Listener listener, ObjectMapper json,
            long deadlineMillis) {
        super(context, CustomTranscribers.PROVIDER, (int) (deadlineMillis / 20) + 50);
        this.format = format;
        this.listener = listener;
        this.json = json;
    }

    static CustomTranscriber open(Context context, WebSocketClient client, String url, Map<String, String> headers,
            AudioFormat format, Listener listener, ObjectMapper json, long deadlineMillis) {
        CustomTranscriber transcriber = new CustomTranscriber(context, format, listener, json, deadlineMillis);
        transcriber.sendText(json.createObjectNode().put("type", "start").put("encoding", "linear16")
                .put("container", "raw").put("sampleRate", SAMPLE_RATE).put("channels", 2).toString());
        WebSocketConnectOptions options = new WebSocketConnectOptions().setAbsoluteURI(url);
        headers.forEach(options::addHeader);
        transcriber.connect(client, options, deadlineMillis);
        return transcriber;
    }

    @Override
    protected void text(String text) {
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (Exception e) {
            fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
            return;
        }
        switch (message.path("type").asText("")) {
            case "transcriber-response" -> {
                if ("assistant".equals(message.path("channel").asText("customer"))) {
                    return;
                }
                String transcription = message.path("transcription").asText("").trim();
                if (transcription.isEmpty()) {
                    return;
                }
                listener.speechStarted();
                listener.segment(transcription, callerStopped);
                callerStopped = false;
            }
            case "error" -> fail(ProviderError.unavailable(provider(), "reported an error"));
            default -> LOG.debugf("custom-transcriber message ignored: %s", message.path("type").asText());
        }
    }

    @Override
    public void send(byte[] audio) {
        if (isClosed()) {
            return;
        }
        bytesSent += audio.length;
        short[] caller = Resampler.convert(format.toPcm(audio), format.sampleRate(), SAMPLE_RATE);
        byte[] stereo = new byte[caller.length * 4];
        for (int i = 0; i < caller.length; i++) {
            stereo[4 * i] = (byte) caller[i];
            stereo[4 * i + 1] = (byte) (caller[i] >> 8);
        }
        sendBinary(Buffer.buffer(stereo));
    }

    /** Nothing is sent (the protocol has no such message); the next transcription ends the turn. */
    @Override
    public void finalizeTurn() {
        callerStopped = true;
    }

    @Override
    public double secondsSent() {
        return format.seconds(bytesSent);
    }

    @Override
    protected void failed(ProviderError error) {
        listener.failed(error);
    }
}
