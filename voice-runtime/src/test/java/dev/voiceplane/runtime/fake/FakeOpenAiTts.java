package dev.voiceplane.runtime.fake;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local OpenAI text-to-speech server, for tests without the internet.
 *
 * <p>Protocol: base URL {@code http://127.0.0.1:<port>/v1}, {@code POST /v1/audio/speech} with
 * {@code Authorization: Bearer <key>} (401 with OpenAI's error body otherwise) and the body
 * {@code {"model","input","voice","response_format":"pcm","speed"}}. After {@link #ttfbMs}, the answer is chunked
 * raw PCM16 LE, 24 kHz, mono ({@code audio/pcm}), the input really spoken (espeak-ng, see {@link SpeechFixtures}), in
 * chunks of {@link #chunkMs} of audio at {@link #realTimeFactor} times real time (0, the default, = as fast as
 * possible). Other response formats answer 400 (the fake speaks only {@code pcm}). Every request is recorded.
 * Failure modes: 401, 500, hang (headers, then nothing), not audio
 * (200 with a JSON body).
 */
public final class FakeOpenAiTts extends FakeTtsServer<FakeOpenAiTts> {

    /** One request as received. */
    public record Request(String model, String input, String voice, String responseFormat, Double speed,
            JsonObject body) {
    }

    private final List<Request> requests = new CopyOnWriteArrayList<>();

    /** Starts the server on a random loopback port; clients must send {@code Authorization: Bearer <apiKey>}. */
    public FakeOpenAiTts(String apiKey) {
        super(apiKey, "OpenAI TTS");
    }

    /** {@code http://127.0.0.1:<port>/v1}; requests go to {@code baseUrl() + "/audio/speech"}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    /** Every request with a valid key, in order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    protected void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            HttpServerResponse response = request.response();
            if (!"/v1/audio/speech".equals(request.path())) {
                error(response, 404, "Unknown path " + request.path(), "invalid_request_error", "unknown_url");
                return;
            }
            Failure mode = failure();
            if (!("Bearer " + apiKey).equals(request.getHeader("Authorization")) || mode == Failure.UNAUTHORIZED) {
                error(response, 401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key");
                return;
            }
            JsonObject json;
            try {
                json = body.toJsonObject();
            } catch (RuntimeException e) {
                error(response, 400, "We could not parse the JSON body of your request.", "invalid_request_error",
                        null);
                return;
            }
            String input = json.getString("input", "");
            String format = json.getString("response_format", "mp3");
            Number speed = json.getNumber("speed");
            requests.add(new Request(json.getString("model"), input, json.getString("voice"), format,
                    speed == null ? null : speed.doubleValue(), json));
            if (mode == Failure.SERVER_ERROR) {
                error(response, 500, "The server had an error while processing your request.", "server_error", null);
                return;
            }
            if (mode == Failure.NOT_AUDIO) {
                error(response, 200, "this is not audio", "server_error", null);
                return;
            }
            if (!"pcm".equals(format)) {
                error(response, 400, "The fake speaks only response_format=pcm", "invalid_request_error", null);
                return;
            }
            if (input.isBlank()) {
                error(response, 400, "input must not be empty", "invalid_request_error", null);
                return;
            }
            response.setChunked(true).putHeader("content-type", "audio/pcm");
            if (mode == Failure.HANG) {
                response.writeHead();
                return;
            }
            speak(response, () -> SpeechFixtures.pcm24k(input), 48,
                    failed -> error(response, 500, failed, "server_error", null));
        });
    }

    private static void error(HttpServerResponse response, int status, String message, String type, String code) {
        JsonObject error = new JsonObject().put("message", message).put("type", type).putNull("param");
        if (code == null) {
            error.putNull("code");
        } else {
            error.put("code", code);
        }
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("error", error).encode());
    }
}
