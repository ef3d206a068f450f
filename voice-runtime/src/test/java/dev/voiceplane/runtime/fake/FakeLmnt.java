package dev.voiceplane.runtime.fake;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local LMNT speech server (the Speech API's binary stream), for tests without the internet.
 *
 * <p>Protocol, as LMNT's API reference ("Generate speech (binary stream)", "API versions") and its official Python
 * SDK (lmnt-python 2.6, API 1.1) describe it: {@code POST /v1/ai/speech/bytes} on {@code https://api.lmnt.com} with
 * {@code X-API-Key: <key>} (401 otherwise) and the API version in {@code lmnt-version} (recorded), a JSON body
 * {@code {"voice","text","model","format","sample_rate","language",…}}; {@code voice} and {@code text} are required
 * and the text is at most 5000 characters (400 otherwise). Formats: the fake streams {@code pcm_s16le} (headerless
 * PCM16 LE) at 8000, 16000 or 24000 Hz ({@code sample_rate}, default 24000); {@code ulaw}, which LMNT sends with a
 * WAV header, and the other formats answer 400 here. After {@link #ttfbMs}, the answer is the text really spoken
 * (espeak-ng, see {@link SpeechFixtures}; 8 kHz PCM is the 8 kHz μ-law fixture decoded), chunked,
 * {@code application/octet-stream}. Errors carry {@code {"error":{"type","message"}}} with the SDK's types
 * ({@code authentication_error}, {@code rate_limit_error}, {@code internal_server_error},
 * {@code invalid_request_error}). Every request with a valid key is recorded. Failure modes: 401, 429, 500, hang
 * (headers, then nothing), not audio (200 with a JSON body).
 */
public final class FakeLmnt extends FakeTtsServer<FakeLmnt> {

    /** One request as received: the API version header and the body's fields as sent. */
    public record Request(String version, String voice, String text, String model, String format, Integer sampleRate,
            JsonObject body) {
    }

    private static final Set<Integer> RATES = Set.of(8000, 16000, 24000);

    private final List<Request> requests = new CopyOnWriteArrayList<>();

    /** Starts the server on a random loopback port; clients must send {@code X-API-Key: <apiKey>}. */
    public FakeLmnt(String apiKey) {
        super(apiKey, "LMNT");
    }

    /** {@code http://127.0.0.1:<port>}, standing for {@code https://api.lmnt.com}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** Every request with a valid key, in order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    protected void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            HttpServerResponse response = request.response();
            if (!"POST".equals(request.method().name()) || !"/v1/ai/speech/bytes".equals(request.path())) {
                error(response, 404, "not_found_error", "Not found");
                return;
            }
            answer(request, response, body);
        });
    }

    private void answer(HttpServerRequest request, HttpServerResponse response, Buffer body) {
        Failure mode = failure();
        if (!apiKey.equals(request.getHeader("X-API-Key")) || mode == Failure.UNAUTHORIZED) {
            error(response, 401, "authentication_error", "Invalid API key");
            return;
        }
        JsonObject json;
        try {
            json = body.toJsonObject();
        } catch (RuntimeException e) {
            error(response, 400, "invalid_request_error", "The body is not JSON");
            return;
        }
        String voice = json.getString("voice");
        String text = json.getString("text", "");
        String format = json.getString("format", "mp3");
        Number rate = json.getNumber("sample_rate");
        int sampleRate = rate == null ? 24000 : rate.intValue();
        requests.add(new Request(request.getHeader("lmnt-version"), voice, text, json.getString("model"), format,
                rate == null ? null : rate.intValue(), json));
        switch (mode) {
            case RATE_LIMITED -> {
                error(response, 429, "rate_limit_error", "Too many requests");
                return;
            }
            case SERVER_ERROR -> {
                error(response, 500, "internal_server_error", "Internal server error");
                return;
            }
            case NOT_AUDIO -> {
                error(response, 200, "internal_server_error", "this is not audio");
                return;
            }
            default -> {
            }
        }
        if (!"pcm_s16le".equals(format) || !RATES.contains(sampleRate)) {
            error(response, 400, "invalid_request_error", "The fake speaks pcm_s16le at 8000, 16000 or 24000 Hz");
            return;
        }
        if (voice == null || voice.isBlank() || text.isBlank() || text.length() > 5000) {
            error(response, 400, "invalid_request_error", "voice and text (at most 5000 characters) are required");
            return;
        }
        response.setChunked(true).putHeader("content-type", "application/octet-stream");
        if (mode == Failure.HANG) {
            response.writeHead();
            return;
        }
        speak(response, text, () -> switch (sampleRate) {
            case 8000 -> pcm8k(text);
            case 16000 -> SpeechFixtures.pcm16k(text);
            default -> SpeechFixtures.pcm24k(text);
        }, sampleRate / 500, failed -> error(response, 500, "internal_server_error", failed));
    }

    /** The 8 kHz μ-law fixture as PCM16 LE: the same speech, at the rate a phone call asks for. */
    private static byte[] pcm8k(String text) {
        byte[] mulaw = SpeechFixtures.mulaw8k(text);
        short[] samples = SpeechFixtures.decodeMulaw(mulaw, 0, mulaw.length);
        byte[] pcm = new byte[samples.length * 2];
        for (int i = 0; i < samples.length; i++) {
            pcm[2 * i] = (byte) samples[i];
            pcm[2 * i + 1] = (byte) (samples[i] >> 8);
        }
        return pcm;
    }

    private static void error(HttpServerResponse response, int status, String type, String message) {
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("error", new JsonObject().put("type", type).put("message", message))
                        .encode());
    }
}
