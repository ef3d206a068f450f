package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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
 */
public final class FakeElevenLabs implements AutoCloseable {

    public enum Failure {
        NONE, UNAUTHORIZED, SERVER_ERROR, HANG, NOT_AUDIO
    }

    /** One request as received: the voice from the path, the format from the query, the body as sent. */
    public record Request(String voiceId, String outputFormat, String text, String modelId, JsonObject body) {
    }

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final HttpServer server;
    private volatile long ttfbMs;
    private volatile double realTimeFactor;
    private volatile int chunkMs = 100;
    private volatile Failure failure = Failure.NONE;
    private final java.util.Map<String, Failure> perVoice = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger disconnects = new AtomicInteger();

    /** Starts the server on a random loopback port; clients must send {@code xi-api-key: <apiKey>}. */
    public FakeElevenLabs(String apiKey) {
        this.apiKey = apiKey;
        try {
            this.server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                    .requestHandler(this::handle)
                    .listen().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.close();
            throw new IllegalStateException("fake ElevenLabs did not start", e);
        }
    }

    public int port() {
        return server.actualPort();
    }

    /** {@code http://127.0.0.1:<port>} (the real one is {@code https://api.elevenlabs.io}). */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** Wall time before the first audio byte. */
    public FakeElevenLabs ttfbMs(long millis) {
        this.ttfbMs = millis;
        return this;
    }

    /** Audio is sent this many times faster than real time (1 = real time); 0 (default) = as fast as possible. */
    public FakeElevenLabs realTimeFactor(double factor) {
        this.realTimeFactor = factor;
        return this;
    }

    /** Audio per chunk (default 100 ms). */
    public FakeElevenLabs chunkMs(int millis) {
        this.chunkMs = millis;
        return this;
    }

    /** Requests for {@code voiceId} fail so (NONE: as the others); other voices are not affected. */
    public FakeElevenLabs failureFor(String voiceId, Failure failure) {
        perVoice.put(voiceId, failure);
        return this;
    }

    public FakeElevenLabs failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    /** Every request with a valid key, in order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Responses the client closed before their end (e.g. the runtime cancelled on barge-in). */
    public int disconnects() {
        return disconnects.get();
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("fake ElevenLabs did not stop", e);
        }
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            HttpServerResponse response = request.response();
            String path = request.path();
            String prefix = "/v1/text-to-speech/";
            if (request.method().name().equals("POST") && path.startsWith(prefix) && path.endsWith("/stream")
                    && path.length() > prefix.length() + "/stream".length()) {
                String voiceId = path.substring(prefix.length(), path.length() - "/stream".length());
                speak(request, response, voiceId, body);
            } else {
                response.setStatusCode(404).end("{\"detail\":\"Not Found\"}");
            }
        });
    }

    private void speak(HttpServerRequest request, HttpServerResponse response, String voiceId, Buffer body) {
        Failure mode = perVoice.getOrDefault(voiceId, Failure.NONE) != Failure.NONE ? perVoice.get(voiceId) : failure;
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
        long started = System.nanoTime();
        vertx.<byte[]>executeBlocking(() -> switch (format) {
            case "ulaw_8000" -> SpeechFixtures.mulaw8k(text);
            case "pcm_16000" -> SpeechFixtures.pcm16k(text);
            default -> SpeechFixtures.pcm24k(text);
        }).onComplete(made -> {
            if (made.failed()) {
                detail(response, 500, "fixture_failed", made.cause().getMessage());
                return;
            }
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            vertx.setTimer(Math.max(1, ttfbMs - waited), t -> send(response, made.result(), bytesPerMs * chunkMs));
        });
    }

    private void send(HttpServerResponse response, byte[] audio, int chunkBytes) {
        response.closeHandler(v -> {
            if (!response.ended()) {
                disconnects.incrementAndGet();
            }
        });
        double factor = realTimeFactor;
        if (factor <= 0) {
            for (int from = 0; from < audio.length; from += chunkBytes) {
                response.write(Buffer.buffer(java.util.Arrays.copyOfRange(audio, from,
                        Math.min(audio.length, from + chunkBytes))));
            }
            response.end();
            return;
        }
        int[] from = { 0 };
        Runnable next = () -> {
            response.write(Buffer.buffer(java.util.Arrays.copyOfRange(audio, from[0],
                    Math.min(audio.length, from[0] + chunkBytes))));
            from[0] += chunkBytes;
        };
        next.run();
        if (from[0] >= audio.length) {
            response.end();
            return;
        }
        vertx.setPeriodic(Math.max(1, Math.round(chunkMs / factor)), tick -> {
            if (response.closed()) {
                vertx.cancelTimer(tick);
                return;
            }
            next.run();
            if (from[0] >= audio.length) {
                vertx.cancelTimer(tick);
                response.end();
            }
        });
    }

    private static void detail(HttpServerResponse response, int status, String code, String message) {
        response.setStatusCode(status).putHeader("content-type", "application/json")
                .end(new JsonObject().put("detail", new JsonObject().put("status", code).put("message", message))
                        .encode());
    }
}
