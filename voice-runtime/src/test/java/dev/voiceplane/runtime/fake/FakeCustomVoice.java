package dev.voiceplane.runtime.fake;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A customer's own speech server as the hosted platform's "custom TTS" documentation describes it (the custom-voice
 * voice), for tests without the internet.
 *
 * <p>Protocol: {@code POST <any path>} ({@link #url} gives one) with {@code Content-Type: application/json}, the
 * header {@code X-VAPI-SECRET: <secret>} when a secret is configured (401 {@code {"error":"Unauthorized"}} otherwise)
 * and the body {@code {"message":{"type":"voice-request","text","sampleRate","timestamp",…}}}: a body that is not
 * that (not JSON, another type, no text) is 400, and so is a {@code sampleRate} outside the hosted platform's 8000,
 * 16000, 22050 and 24000 (the fake speaks 8000, 16000 and 24000 Hz: 22050 is 400 here). The answer, after
 * {@link #ttfbMs}, is 200 {@code application/octet-stream}, chunked raw PCM16 little-endian mono at the rate asked:
 * the text really spoken (espeak-ng; 8 kHz is the μ-law fixture decoded), in chunks of {@link #chunkMs} of audio at
 * {@link #realTimeFactor} times real time, or held open part way ({@link #holdAfterMs}). Every request is recorded
 * with its headers. Failure modes: a refused secret (401), 429, 500, hang (headers, then nothing), not audio (200 with
 * a JSON body).
 */
public final class FakeCustomVoice extends FakeTtsServer<FakeCustomVoice> {

    /** One request as received: its path, its headers (names as sent), the message's fields, the whole body. */
    public record Request(String path, Map<String, String> headers, String type, String text, Integer sampleRate,
            JsonObject body) {
    }

    private static final Set<Integer> RATES = Set.of(8000, 16000, 22050, 24000);

    private volatile String secret;
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    /** Starts the server on a random loopback port; requests must carry {@code X-VAPI-SECRET: <secret>}. */
    public FakeCustomVoice(String secret) {
        super(secret, "custom voice");
        this.secret = secret;
    }

    /** {@code http://127.0.0.1:<port>/api/synthesize}: where the customer's assistant points its voice. */
    public String url() {
        return "http://127.0.0.1:" + port() + "/api/synthesize";
    }

    /** The secret requests must carry (null: none is checked). */
    public FakeCustomVoice secret(String secret) {
        this.secret = secret;
        return this;
    }

    /** The audio the fake answers for {@code text} at {@code rate}: PCM16 little-endian mono. */
    public static byte[] audio(String text, int rate) {
        return switch (rate) {
            case 8000 -> pcm8k(SpeechFixtures.mulaw8k(text));
            case 16000 -> SpeechFixtures.pcm16k(text);
            default -> SpeechFixtures.pcm24k(text);
        };
    }

    /** Every request, in order, those refused included. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    protected void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> answer(request, request.response(), body));
    }

    private void answer(HttpServerRequest request, HttpServerResponse response, Buffer body) {
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        request.headers().forEach(header -> headers.put(header.getKey(), header.getValue()));
        JsonObject json;
        try {
            json = body.toJsonObject();
        } catch (RuntimeException e) {
            requests.add(new Request(request.path(), headers, null, null, null, null));
            error(response, 400, "Missing message object");
            return;
        }
        JsonObject message = json.getJsonObject("message", new JsonObject());
        Integer rate = message.getValue("sampleRate") instanceof Number number ? number.intValue() : null;
        String text = message.getString("text");
        requests.add(new Request(request.path(), headers, message.getString("type"), text, rate, json));
        String expected = secret;
        if (!"POST".equals(request.method().name())) {
            error(response, 405, "Method not allowed");
            return;
        }
        if ((expected != null && !expected.equals(headers.get("X-VAPI-SECRET"))) || failure() == Failure.UNAUTHORIZED) {
            error(response, 401, "Unauthorized");
            return;
        }
        if (failure() == Failure.RATE_LIMITED) {
            error(response, 429, "Too many requests");
            return;
        }
        if (failure() == Failure.SERVER_ERROR) {
            error(response, 500, "TTS synthesis failed");
            return;
        }
        if (!"voice-request".equals(message.getString("type"))) {
            error(response, 400, "Invalid message type");
            return;
        }
        if (text == null || text.isBlank()) {
            error(response, 400, "Invalid or missing text");
            return;
        }
        if (rate == null || !RATES.contains(rate)) {
            error(response, 400, "Unsupported sample rate");
            return;
        }
        if (failure() == Failure.NOT_AUDIO) {
            response.setStatusCode(200).putHeader("content-type", "application/json")
                    .end(new JsonObject().put("status", "ok").put("text", "this is not audio").encode());
            return;
        }
        if (rate == 22050) {
            error(response, 400, "The fake speaks 8000, 16000 and 24000 Hz");
            return;
        }
        response.setChunked(true).putHeader("content-type", "application/octet-stream");
        if (failure() == Failure.HANG) {
            response.writeHead();
            return;
        }
        speak(response, text, () -> audio(text, rate), rate * 2 / 1000, failed -> error(response, 500, failed));
    }

    /** μ-law 8 kHz to PCM16 little-endian at the same rate. */
    private static byte[] pcm8k(byte[] mulaw) {
        short[] samples = SpeechFixtures.decodeMulaw(mulaw, 0, mulaw.length);
        byte[] pcm = new byte[samples.length * 2];
        for (int i = 0; i < samples.length; i++) {
            pcm[2 * i] = (byte) samples[i];
            pcm[2 * i + 1] = (byte) (samples[i] >> 8);
        }
        return pcm;
    }

    private static void error(HttpServerResponse response, int status, String message) {
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("error", message).encode());
    }
}
