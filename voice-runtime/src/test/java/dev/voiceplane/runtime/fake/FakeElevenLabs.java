package dev.voiceplane.runtime.fake;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local ElevenLabs streaming text-to-speech server, for tests without the internet.
 *
 * <p>Protocol: {@code POST /v1/text-to-speech/{voiceId}/stream?output_format=ulaw_8000|pcm_16000|pcm_24000} with
 * the header {@code xi-api-key: <key>} (401 {@code {"detail":{"status":"invalid_api_key",…}}} otherwise) and the
 * body {@code {"text","model_id","voice_settings":{…}}}. After {@link #ttfbMs}, the answer is chunked raw audio
 * without a header ({@code audio/basic} for μ-law, {@code audio/pcm} for PCM16 LE mono) of the text really spoken
 * (espeak-ng, see {@link SpeechFixtures}), in chunks of {@link #chunkMs} of audio, sent at {@link #realTimeFactor}
 * times real time (0, the default, sends them as fast as possible). Other output formats answer 400 (the fake speaks
 * only raw formats). Every request is recorded. Failure modes: 401, 500, hang (headers, then nothing), not
 * audio (200 with a JSON body), for every request ({@link #failure}) or for one voice ({@link #failureFor}).
 *
 * <p>The same server is ElevenLabs' realtime speech-to-text, {@code /v1/speech-to-text/realtime} ({@link #scribe}).
 */
public final class FakeElevenLabs extends FakeTtsServer<FakeElevenLabs> {

    /** One request as received: the voice from the path, the format from the query, the body as sent. */
    public record Request(String voiceId, String outputFormat, String text, String modelId, JsonObject body) {
    }

    private final java.util.Map<String, Failure> perVoice = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final FakeElevenLabsScribe scribe;

    /** Starts the server on a random loopback port; clients must send {@code xi-api-key: <apiKey>}. */
    public FakeElevenLabs(String apiKey) {
        super(apiKey, "ElevenLabs");
        this.scribe = new FakeElevenLabsScribe(apiKey);
    }

    /** The realtime speech-to-text (Scribe) of this server. */
    public FakeElevenLabsScribe scribe() {
        return scribe;
    }

    /** {@code http://127.0.0.1:<port>} (the real one is {@code https://api.elevenlabs.io}). */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** Requests for {@code voiceId} fail so (NONE: as the others); other voices are not affected. */
    public FakeElevenLabs failureFor(String voiceId, Failure failure) {
        perVoice.put(voiceId, failure);
        return this;
    }

    /** Every request with a valid key, in order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    protected void handle(HttpServerRequest request) {
        if (FakeElevenLabsScribe.PATH.equals(request.path())) {
            scribe.handle(request);
            return;
        }
        request.body().onSuccess(body -> {
            HttpServerResponse response = request.response();
            String path = request.path();
            String prefix = "/v1/text-to-speech/";
            if (request.method().name().equals("POST") && path.startsWith(prefix) && path.endsWith("/stream")
                    && path.length() > prefix.length() + "/stream".length()) {
                String voiceId = path.substring(prefix.length(), path.length() - "/stream".length());
                answer(request, response, voiceId, body);
            } else {
                response.setStatusCode(404).end("{\"detail\":\"Not Found\"}");
            }
        });
    }

    private void answer(HttpServerRequest request, HttpServerResponse response, String voiceId, Buffer body) {
        Failure mode = perVoice.getOrDefault(voiceId, Failure.NONE) != Failure.NONE ? perVoice.get(voiceId) : failure();
        if (!apiKey.equals(request.getHeader("xi-api-key")) || mode == Failure.UNAUTHORIZED) {
            detail(response, 401, "invalid_api_key", "Invalid API key");
            return;
        }
        JsonObject json;
        try {
            json = body.toJsonObject();
        } catch (RuntimeException e) {
            detail(response, 400, "invalid_json", "Invalid JSON body");
            return;
        }
        String format = request.getParam("output_format", "mp3_44100_128");
        String text = json.getString("text", "");
        requests.add(new Request(voiceId, format, text, json.getString("model_id"), json));
        if (mode == Failure.SERVER_ERROR) {
            detail(response, 500, "internal_error", "An internal error occurred");
            return;
        }
        if (mode == Failure.NOT_AUDIO) {
            detail(response, 200, "ok", "this is not audio");
            return;
        }
        int bytesPerMs = switch (format) {
            case "ulaw_8000" -> 8;
            case "pcm_16000" -> 32;
            case "pcm_24000" -> 48;
            default -> -1;
        };
        if (bytesPerMs < 0) {
            detail(response, 400, "invalid_output_format", "The fake speaks ulaw_8000, pcm_16000 and pcm_24000");
            return;
        }
        if (text.isBlank()) {
            detail(response, 400, "invalid_text", "text must not be empty");
            return;
        }
        response.setChunked(true).putHeader("content-type", format.startsWith("ulaw") ? "audio/basic" : "audio/pcm");
        if (mode == Failure.HANG) {
            response.writeHead();
            return;
        }
        speak(response, () -> switch (format) {
            case "ulaw_8000" -> SpeechFixtures.mulaw8k(text);
            case "pcm_16000" -> SpeechFixtures.pcm16k(text);
            default -> SpeechFixtures.pcm24k(text);
        }, bytesPerMs, failed -> detail(response, 500, "fixture_failed", failed));
    }

    private static void detail(HttpServerResponse response, int status, String code, String message) {
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("detail", new JsonObject().put("status", code).put("message", message))
                        .encode());
    }
}
