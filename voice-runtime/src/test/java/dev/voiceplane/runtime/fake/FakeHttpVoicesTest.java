package dev.voiceplane.runtime.fake;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Azure Speech, Rime and LMNT fakes answer the text really spoken in the asked format, and refuse what their
 * vendors refuse: another key, a body or format outside the protocol.
 */
class FakeHttpVoicesTest {

    private static final String TEXT = "Hello, how can I help?";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void azureSpeaksTheSsmlsTextInTheOutputFormatOfItsHeader() throws Exception {
        try (FakeAzureSpeech azure = new FakeAzureSpeech("az-key")) {
            String url = azure.baseUrl() + "/cognitiveservices/v1";
            String ssml = "<speak version='1.0' xml:lang='en-US'><voice name='en-US-JennyNeural'>"
                    + "<prosody rate='1.1'>Hello, how can I help?</prosody></voice></speak>";
            Map<String, String> headers = Map.of("Ocp-Apim-Subscription-Key", "az-key", "Content-Type",
                    "application/ssml+xml", "X-Microsoft-OutputFormat", "raw-8khz-8bit-mono-mulaw", "User-Agent", "t");
            HttpResponse<byte[]> mulaw = post(url, headers, ssml);
            assertEquals(200, mulaw.statusCode());
            assertArrayEquals(SpeechFixtures.mulaw8k(TEXT), mulaw.body());
            FakeAzureSpeech.Request request = azure.requests().get(0);
            assertEquals("en-US-JennyNeural", request.voiceName());
            assertEquals("en-US", request.lang());
            assertEquals("1.1", request.rate());
            assertEquals(TEXT, request.text());
            assertArrayEquals(SpeechFixtures.pcm16k(TEXT), post(url, with(headers, "X-Microsoft-OutputFormat",
                    "raw-16khz-16bit-mono-pcm"), ssml).body());

            assertEquals(401, post(url, with(headers, "Ocp-Apim-Subscription-Key", "other"), ssml).statusCode());
            assertEquals(415, post(url, with(headers, "Content-Type", "text/plain"), ssml).statusCode());
            assertEquals(400, post(url, with(headers, "X-Microsoft-OutputFormat", "audio-24khz-48kbitrate-mono-mp3"),
                    ssml).statusCode());
            assertEquals(400, post(url, headers, ssml.replace("en-US-JennyNeural", "andrew")).statusCode(),
                    "a voice that is not a neural voice name");
            assertEquals(400, post(url, headers, "Hello & goodbye").statusCode(), "not SSML");
            azure.failure(FakeTtsServer.Failure.RATE_LIMITED);
            assertEquals(429, post(url, headers, ssml).statusCode());
            azure.failure(FakeTtsServer.Failure.SERVER_ERROR);
            assertEquals(503, post(url, headers, ssml).statusCode());
        }
    }

    @Test
    void rimeSpeaksInTheFormatItsAcceptHeaderAsks() throws Exception {
        try (FakeRime rime = new FakeRime("rime-key")) {
            String url = rime.baseUrl() + "/v1/rime-tts";
            JsonObject body = new JsonObject().put("speaker", "cove").put("text", TEXT).put("modelId", "mistv2");
            Map<String, String> headers = Map.of("Authorization", "Bearer rime-key", "Accept", "audio/PCMU",
                    "Content-Type", "application/json");
            assertArrayEquals(SpeechFixtures.mulaw8k(TEXT), post(url, headers, body.encode()).body());
            assertArrayEquals(SpeechFixtures.pcm16k(TEXT), post(url, with(headers, "Accept", "audio/L16"),
                    body.copy().put("samplingRate", 16000).encode()).body());
            FakeRime.Request request = rime.requests().get(1);
            assertEquals("audio/L16", request.accept());
            assertEquals(16000, request.samplingRate());
            assertEquals("cove", request.speaker());

            HttpResponse<byte[]> refused = post(url, with(headers, "Authorization", "Bearer other"), body.encode());
            assertEquals(401, refused.statusCode());
            assertEquals("invalid api key", new String(refused.body()));
            assertEquals(400, post(url, with(headers, "Accept", "audio/mpeg"), body.encode()).statusCode());
            assertEquals(400, post(url, headers, body.copy().put("text", "a".repeat(501)).encode()).statusCode(),
                    "more than 500 characters");
            rime.failure(FakeTtsServer.Failure.RATE_LIMITED);
            assertEquals(429, post(url, headers, body.encode()).statusCode());
        }
    }

    @Test
    void lmntSpeaksHeaderlessPcmAtTheAskedRate() throws Exception {
        try (FakeLmnt lmnt = new FakeLmnt("lmnt-key")) {
            String url = lmnt.baseUrl() + "/v1/ai/speech/bytes";
            JsonObject body = new JsonObject().put("voice", "leah").put("text", TEXT).put("format", "pcm_s16le")
                    .put("sample_rate", 16000);
            Map<String, String> headers = Map.of("X-API-Key", "lmnt-key", "lmnt-version", "1.1", "Content-Type",
                    "application/json");
            assertArrayEquals(SpeechFixtures.pcm16k(TEXT), post(url, headers, body.encode()).body());
            byte[] mulaw = SpeechFixtures.mulaw8k(TEXT);
            byte[] pcm8k = post(url, headers, body.copy().put("sample_rate", 8000).encode()).body();
            assertArrayEquals(SpeechFixtures.decodeMulaw(mulaw, 0, mulaw.length),
                    SpeechFixtures.decodePcm16le(pcm8k, 0, pcm8k.length));
            FakeLmnt.Request request = lmnt.requests().get(0);
            assertEquals("1.1", request.version());
            assertEquals("leah", request.voice());
            assertNull(request.model());

            HttpResponse<byte[]> refused = post(url, with(headers, "X-API-Key", "other"), body.encode());
            assertEquals(401, refused.statusCode());
            assertEquals("authentication_error", new JsonObject(new String(refused.body())).getJsonObject("error")
                    .getString("type"));
            assertEquals(400, post(url, headers, body.copy().put("format", "ulaw").encode()).statusCode());
            lmnt.failure(FakeTtsServer.Failure.RATE_LIMITED);
            assertEquals(429, post(url, headers, body.encode()).statusCode());
        }
    }

    private static Map<String, String> with(Map<String, String> headers, String name, String value) {
        java.util.HashMap<String, String> changed = new java.util.HashMap<>(headers);
        changed.put(name, value);
        return changed;
    }

    private HttpResponse<byte[]> post(String url, Map<String, String> headers, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
