package dev.voiceplane.runtime.fake;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local Rime streaming text-to-speech server (HTTP), for tests without the internet.
 *
 * <p>Protocol, as Rime's API reference ("Streaming HTTP", "Authentication") describes it:
 * {@code POST /v1/rime-tts} on {@code https://users.rime.ai} with {@code Authorization: Bearer <key>} (otherwise 401
 * with a short plain-text body: {@code missing headers} without the header, {@code invalid api key} with another
 * key), a JSON body {@code {"speaker","text","modelId","samplingRate","lang","speedAlpha","timeScaleFactor",…}} and
 * the audio format in the {@code Accept} header: {@code audio/PCMU} (or its older alias {@code audio/x-mulaw}) for
 * G.711 μ-law, headerless, {@code audio/L16} (or {@code audio/pcm}) for headerless PCM16 LE; other types answer 400
 * (the fake speaks only these). A request without {@code speaker} or {@code text}, or with more than 500 characters
 * of text (the API's limit per request), answers 400. The fake speaks μ-law at 8 kHz and PCM at 16 or 24 kHz (the
 * {@code samplingRate}, else the format's default: 8000 for μ-law, 16000 for PCM); other rates answer 400. After
 * {@link #ttfbMs}, the answer is the audio of the text really spoken (espeak-ng, see {@link SpeechFixtures}), chunked,
 * labelled with the type asked for. Every request with a valid key is recorded. Failure modes: 401, 429, 500, hang
 * (headers, then nothing), not audio (200 with a JSON body).
 */
public final class FakeRime extends FakeTtsServer<FakeRime> {

    /** One request as received: the {@code Accept} header and the body's fields as sent. */
    public record Request(String accept, String speaker, String text, String modelId, Integer samplingRate,
            JsonObject body) {
    }

    private final List<Request> requests = new CopyOnWriteArrayList<>();

    /** Starts the server on a random loopback port; clients must send {@code Authorization: Bearer <apiKey>}. */
    public FakeRime(String apiKey) {
        super(apiKey, "Rime");
    }

    /** {@code http://127.0.0.1:<port>}, standing for {@code https://users.rime.ai}. */
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
            if (!"POST".equals(request.method().name()) || !"/v1/rime-tts".equals(request.path())) {
                text(response, 404, "not found");
                return;
            }
            answer(request, response, body);
        });
    }

    private void answer(HttpServerRequest request, HttpServerResponse response, Buffer body) {
        Failure mode = failure();
        String authorization = request.getHeader("Authorization");
        if (authorization == null) {
            text(response, 401, "missing headers");
            return;
        }
        if (!("Bearer " + apiKey).equals(authorization) || mode == Failure.UNAUTHORIZED) {
            text(response, 401, "invalid api key");
            return;
        }
        JsonObject json;
        try {
            json = body.toJsonObject();
        } catch (RuntimeException e) {
            text(response, 400, "invalid JSON");
            return;
        }
        String accept = request.getHeader("Accept");
        String speaker = json.getString("speaker");
        String text = json.getString("text", "");
        Number rate = json.getNumber("samplingRate");
        requests.add(new Request(accept, speaker, text, json.getString("modelId"),
                rate == null ? null : rate.intValue(), json));
        switch (mode) {
            case RATE_LIMITED -> {
                text(response, 429, "too many requests");
                return;
            }
            case SERVER_ERROR -> {
                text(response, 500, "internal server error");
                return;
            }
            case NOT_AUDIO -> {
                response.setStatusCode(200).putHeader("content-type", "application/json")
                        .end(new JsonObject().put("message", "this is not audio").encode());
                return;
            }
            default -> {
            }
        }
        String type = accept == null ? "" : accept.toLowerCase(Locale.ROOT).trim();
        boolean mulaw = type.equals("audio/pcmu") || type.equals("audio/x-mulaw");
        boolean pcm = type.equals("audio/l16") || type.equals("audio/pcm");
        int samplingRate = rate != null ? rate.intValue() : mulaw ? 8000 : 16000;
        if (!mulaw && !pcm) {
            text(response, 400, "the fake speaks audio/PCMU and audio/L16");
            return;
        }
        if (mulaw ? samplingRate != 8000 : samplingRate != 16000 && samplingRate != 24000) {
            text(response, 400, "the fake speaks μ-law at 8000 Hz and PCM at 16000 or 24000 Hz");
            return;
        }
        if (speaker == null || speaker.isBlank() || text.isBlank() || text.length() > 500) {
            text(response, 400, "speaker and text (at most 500 characters) are required");
            return;
        }
        response.setChunked(true).putHeader("content-type", accept);
        if (mode == Failure.HANG) {
            response.writeHead();
            return;
        }
        speak(response, text, () -> mulaw ? SpeechFixtures.mulaw8k(text)
                : samplingRate == 16000 ? SpeechFixtures.pcm16k(text) : SpeechFixtures.pcm24k(text),
                mulaw ? 8 : samplingRate / 500, failed -> text(response, 500, failed));
    }

    private static void text(HttpServerResponse response, int status, String message) {
        response.setStatusCode(status).putHeader("content-type", "text/plain; charset=utf-8").end(message);
    }
}
