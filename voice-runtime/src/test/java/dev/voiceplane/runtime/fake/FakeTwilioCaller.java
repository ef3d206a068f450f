package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * A caller on the phone, as Twilio Media Streams (bidirectional) presents it to the runtime's media WebSocket.
 *
 * <p>Sent, JSON text frames: {@code {"event":"connected","protocol":"Call","version":"1.0.0"}}, then
 * {@code {"event":"start","sequenceNumber":"1","streamSid":"MZ…","start":{"streamSid","accountSid","callSid",
 * "tracks":["inbound"],"customParameters":{…},"mediaFormat":{"encoding":"audio/x-mulaw","sampleRate":8000,
 * "channels":1}}}}, then every 20 ms {@code {"event":"media","sequenceNumber":"n","streamSid",
 * "media":{"track":"inbound","chunk":"k","timestamp":"<ms since start>","payload":"<base64 of 160 bytes μ-law>"}}}
 * (silence, 0xFF, unless {@link #say} speech is playing); {@link #dtmf} sends
 * {@code {"event":"dtmf","streamSid","sequenceNumber","dtmf":{"track":"inbound_track","digit"}}}; {@link #stop} sends
 * {@code {"event":"stop","sequenceNumber","streamSid","stop":{"accountSid","callSid"}}} and closes.
 *
 * <p>Received: {@code media} (base64 μ-law, played in real time), {@code mark} (echoed as
 * {@code {"event":"mark","sequenceNumber","streamSid","mark":{"name"}}} once the audio before it has played),
 * {@code clear} (drops the queued audio, echoes pending marks at once). See {@link FakeCaller} for what is recorded.
 */
public final class FakeTwilioCaller extends FakeCaller {

    private final Map<String, String> customParameters;
    private final String accountSid = sid("AC");
    private final String callSid;
    private final String streamSid = sid("MZ");
    private int sequence;
    private int chunk;

    private FakeTwilioCaller(Vertx vertx, Map<String, String> customParameters, String callSid) {
        super(vertx, 160, (byte) 0xFF);
        this.customParameters = Map.copyOf(customParameters);
        this.callSid = callSid == null ? sid("CA") : callSid;
    }

    /** Connects with its own Vert.x and starts the stream ({@code customParameters} as the TwiML's Parameters). */
    public static FakeTwilioCaller connect(String url, Map<String, String> customParameters) {
        return connect(null, url, customParameters, null);
    }

    /**
     * Connects on {@code vertx} (null: its own), as call {@code callSid} (null: a random {@code CA…}), and starts the
     * stream. Throws IllegalStateException (cause: the client's, e.g. UpgradeRejectedException) when refused.
     */
    public static FakeTwilioCaller connect(Vertx vertx, String url, Map<String, String> customParameters,
            String callSid) {
        FakeTwilioCaller caller = new FakeTwilioCaller(vertx, customParameters, callSid);
        caller.open(url, Map.of());
        return caller;
    }

    public String streamSid() {
        return streamSid;
    }

    public String callSid() {
        return callSid;
    }

    public String accountSid() {
        return accountSid;
    }

    /** Sends a DTMF digit, as Twilio does when the caller presses a key. */
    public void dtmf(char digit) {
        run(() -> send(new JsonObject().put("event", "dtmf").put("streamSid", streamSid)
                .put("sequenceNumber", next())
                .put("dtmf", new JsonObject().put("track", "inbound_track").put("digit", String.valueOf(digit)))));
    }

    /** The caller hangs up: the {@code stop} event, then the close. */
    public CompletableFuture<Closed> stop() {
        return hangUp(() -> new JsonObject().put("event", "stop").put("sequenceNumber", next())
                .put("streamSid", streamSid)
                .put("stop", new JsonObject().put("accountSid", accountSid).put("callSid", callSid)).encode());
    }

    @Override
    void opened() {
        send(new JsonObject().put("event", "connected").put("protocol", "Call").put("version", "1.0.0"));
        JsonObject parameters = new JsonObject();
        customParameters.forEach(parameters::put);
        send(new JsonObject().put("event", "start").put("sequenceNumber", next()).put("streamSid", streamSid)
                .put("start", new JsonObject().put("streamSid", streamSid).put("accountSid", accountSid)
                        .put("callSid", callSid).put("tracks", new JsonArray().add("inbound"))
                        .put("customParameters", parameters)
                        .put("mediaFormat", new JsonObject().put("encoding", "audio/x-mulaw").put("sampleRate", 8000)
                                .put("channels", 1))));
    }

    @Override
    void sendAudio(byte[] frame) {
        chunk++;
        send(new JsonObject().put("event", "media").put("sequenceNumber", next()).put("streamSid", streamSid)
                .put("media", new JsonObject().put("track", "inbound").put("chunk", String.valueOf(chunk))
                        .put("timestamp", String.valueOf((chunk - 1) * 20))
                        .put("payload", Base64.getEncoder().encodeToString(frame))));
    }

    @Override
    void echoMark(String name) {
        send(new JsonObject().put("event", "mark").put("sequenceNumber", next()).put("streamSid", streamSid)
                .put("mark", new JsonObject().put("name", name)));
    }

    @Override
    void text(String message) {
        JsonObject json;
        try {
            json = new JsonObject(message);
        } catch (RuntimeException e) {
            record(new JsonObject().put("unparseable", message));
            return;
        }
        String event = json.getString("event", "");
        switch (event) {
            case "media" -> audio(Base64.getDecoder().decode(json.getJsonObject("media").getString("payload")));
            case "mark" -> {
                record(json);
                mark(json.getJsonObject("mark").getString("name"));
            }
            case "clear" -> {
                record(json);
                clear();
            }
            default -> record(json);
        }
    }

    @Override
    boolean echoMarksOnClear() {
        return true;
    }

    @Override
    void binary(byte[] message) {
        record(new JsonObject().put("unexpectedBinaryBytes", message.length));
    }

    @Override
    boolean silent(byte[] audio) {
        for (byte b : audio) {
            if (Math.abs(SpeechFixtures.mulawToLinear(b)) > 200) {
                return false;
            }
        }
        return true;
    }

    private void send(JsonObject message) {
        sendText(message.encode());
    }

    private String next() {
        return String.valueOf(++sequence);
    }

    private static String sid(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "");
    }
}
