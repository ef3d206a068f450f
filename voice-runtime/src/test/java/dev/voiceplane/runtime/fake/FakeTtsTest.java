package dev.voiceplane.runtime.fake;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The fake ElevenLabs and OpenAI text-to-speech servers answer the text really spoken, in the asked format. */
class FakeTtsTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void elevenLabsStreamsTheSpeechInTheAskedFormat() throws Exception {
        try (FakeElevenLabs tts = new FakeElevenLabs("xi-key").ttfbMs(20).realTimeFactor(20)) {
            JsonObject body = new JsonObject().put("text", "Hello, how can I help?").put("model_id", "eleven_flash_v2_5")
                    .put("voice_settings", new JsonObject().put("stability", 0.5));
            HttpResponse<byte[]> mulaw = post(tts.baseUrl() + "/v1/text-to-speech/voice-1/stream?output_format=ulaw_8000",
                    "xi-api-key", "xi-key", body);
            assertEquals(200, mulaw.statusCode());
            assertArrayEquals(SpeechFixtures.mulaw8k("Hello, how can I help?"), mulaw.body());
            HttpResponse<byte[]> pcm = post(tts.baseUrl() + "/v1/text-to-speech/voice-2/stream?output_format=pcm_16000",
                    "xi-api-key", "xi-key", body);
            assertArrayEquals(SpeechFixtures.pcm16k("Hello, how can I help?"), pcm.body());

            assertEquals(2, tts.requests().size());
            FakeElevenLabs.Request first = tts.requests().get(0);
            assertEquals("voice-1", first.voiceId());
            assertEquals("ulaw_8000", first.outputFormat());
            assertEquals("Hello, how can I help?", first.text());
            assertEquals("eleven_flash_v2_5", first.modelId());
            assertEquals("pcm_16000", tts.requests().get(1).outputFormat());

            assertEquals(401, post(tts.baseUrl() + "/v1/text-to-speech/v/stream?output_format=ulaw_8000",
                    "xi-api-key", "wrong", body).statusCode());
            tts.failure(FakeElevenLabs.Failure.SERVER_ERROR);
            assertEquals(500, post(tts.baseUrl() + "/v1/text-to-speech/v/stream?output_format=ulaw_8000",
                    "xi-api-key", "xi-key", body).statusCode());
            tts.failure(FakeElevenLabs.Failure.HANG);
            // Headers, then no audio: the body never ends (the test's bound stands for the client's read timeout).
            CompletableFuture<HttpResponse<byte[]>> hung = http.sendAsync(HttpRequest.newBuilder(
                    URI.create(tts.baseUrl() + "/v1/text-to-speech/v/stream?output_format=ulaw_8000"))
                    .header("xi-api-key", "xi-key").POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThrows(TimeoutException.class, () -> hung.get(300, TimeUnit.MILLISECONDS));
            hung.cancel(true);
        }
    }

    @Test
    void openAiTtsStreamsPcm24k() throws Exception {
        try (FakeOpenAiTts tts = new FakeOpenAiTts("sk-tts")) {
            JsonObject body = new JsonObject().put("model", "gpt-4o-mini-tts").put("input", "One moment please.")
                    .put("voice", "alloy").put("response_format", "pcm").put("speed", 1.1);
            HttpResponse<byte[]> response = post(tts.baseUrl() + "/audio/speech", "Authorization", "Bearer sk-tts",
                    body);
            assertEquals(200, response.statusCode());
            assertArrayEquals(SpeechFixtures.pcm24k("One moment please."), response.body());
            FakeOpenAiTts.Request request = tts.requests().get(0);
            assertEquals("alloy", request.voice());
            assertEquals(1.1, request.speed());
            assertEquals("One moment please.", request.input());
            assertEquals(401, post(tts.baseUrl() + "/audio/speech", "Authorization", "Bearer nope", body)
                    .statusCode());
            assertEquals(400, post(tts.baseUrl() + "/audio/speech", "Authorization", "Bearer sk-tts",
                    body.copy().put("response_format", "mp3")).statusCode());
        }
    }

    private HttpResponse<byte[]> post(String url, String header, String value, JsonObject body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header(header, value)
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body.encode())).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }
}
