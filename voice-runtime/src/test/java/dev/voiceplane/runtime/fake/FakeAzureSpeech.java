package dev.voiceplane.runtime.fake;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A local Azure Speech text-to-speech server (the REST API), for tests without the internet.
 *
 * <p>Protocol, as Microsoft's "Text to speech REST API" page describes it: {@code POST /cognitiveservices/v1} on the
 * region's host ({@code https://<region>.tts.speech.microsoft.com}) with the headers
 * {@code Ocp-Apim-Subscription-Key: <key>} (401 otherwise), {@code Content-Type: application/ssml+xml} (415
 * otherwise), {@code X-Microsoft-OutputFormat} (the fake speaks the raw streaming formats
 * {@code raw-8khz-8bit-mono-mulaw}, {@code raw-16khz-16bit-mono-pcm} and {@code raw-24khz-16bit-mono-pcm}; others
 * answer 400) and {@code User-Agent} (required: 400 without it). The body is SSML:
 * {@code <speak version='1.0' xml:lang='..'><voice name='en-US-JennyNeural'><prosody rate='1.2'>text</prosody>
 * </voice></speak>}; it is parsed as XML (400 when it is not well formed, has no {@code voice}, or names a voice that
 * is not a neural voice name {@code <lang>-<REGION>-<Name>Neural}) and the text is what the voice element holds, its
 * entities decoded. After {@link #ttfbMs}, the answer is the raw audio, chunked, no header, of the text really spoken
 * (espeak-ng, see {@link SpeechFixtures}); the fake labels it {@code audio/basic} (μ-law) or {@code audio/L16}. Every
 * request with a valid key is recorded. Failure modes: 401, 429 (too many requests), 503 (the page's "service
 * unavailable"), hang (headers, then nothing), not audio (200 with a JSON body).
 */
public final class FakeAzureSpeech extends FakeTtsServer<FakeAzureSpeech> {

    /**
     * One request as received: the headers that matter, and from the SSML the language, the voice name, the prosody
     * rate (null without one) and the text.
     */
    public record Request(String outputFormat, String userAgent, String lang, String voiceName, String rate,
            String text, String ssml) {
    }

    private static final Pattern NEURAL_VOICE = Pattern.compile("[a-z]{2,3}-[A-Z]{2}-[A-Za-z0-9]+Neural");
    private static final Map<String, Integer> FORMATS = Map.of("raw-8khz-8bit-mono-mulaw", 8,
            "raw-16khz-16bit-mono-pcm", 32, "raw-24khz-16bit-mono-pcm", 48);

    private final List<Request> requests = new CopyOnWriteArrayList<>();

    /** Starts the server on a random loopback port; clients must send {@code Ocp-Apim-Subscription-Key: <apiKey>}. */
    public FakeAzureSpeech(String apiKey) {
        super(apiKey, "Azure Speech");
    }

    /** {@code http://127.0.0.1:<port>}, standing for the region's {@code https://<region>.tts.speech.microsoft.com}. */
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
            if (!"POST".equals(request.method().name()) || !"/cognitiveservices/v1".equals(request.path())) {
                response.setStatusCode(404).end();
                return;
            }
            answer(request, response, body);
        });
    }

    private void answer(HttpServerRequest request, HttpServerResponse response, Buffer body) {
        Failure mode = failure();
        if (!apiKey.equals(request.getHeader("Ocp-Apim-Subscription-Key")) || mode == Failure.UNAUTHORIZED) {
            response.setStatusCode(401).end();
            return;
        }
        String contentType = request.getHeader("Content-Type");
        if (contentType == null || !contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/ssml+xml")) {
            response.setStatusCode(415).end();
            return;
        }
        String format = request.getHeader("X-Microsoft-OutputFormat");
        String userAgent = request.getHeader("User-Agent");
        if (format == null || !FORMATS.containsKey(format) || userAgent == null || userAgent.isBlank()) {
            response.setStatusCode(400).end();
            return;
        }
        String ssml = body.toString(StandardCharsets.UTF_8);
        Element voice;
        Document document;
        try {
            document = parse(ssml);
            NodeList voices = document.getElementsByTagName("voice");
            voice = voices.getLength() == 1 ? (Element) voices.item(0) : null;
        } catch (Exception e) {
            voice = null;
            document = null;
        }
        if (voice == null || !"speak".equals(document.getDocumentElement().getTagName())
                || !NEURAL_VOICE.matcher(voice.getAttribute("name")).matches()) {
            response.setStatusCode(400).end();
            return;
        }
        NodeList prosody = voice.getElementsByTagName("prosody");
        String rate = prosody.getLength() == 0 ? null : ((Element) prosody.item(0)).getAttribute("rate");
        String text = voice.getTextContent();
        requests.add(new Request(format, userAgent, document.getDocumentElement().getAttribute("xml:lang"),
                voice.getAttribute("name"), rate, text, ssml));
        switch (mode) {
            case RATE_LIMITED -> {
                response.setStatusCode(429).end();
                return;
            }
            case SERVER_ERROR -> {
                response.setStatusCode(503).end();
                return;
            }
            case NOT_AUDIO -> {
                response.setStatusCode(200).putHeader("content-type", "application/json")
                        .end(new JsonObject().put("error", new JsonObject().put("message", "this is not audio"))
                                .encode());
                return;
            }
            default -> {
            }
        }
        if (text.isBlank()) {
            response.setStatusCode(400).end();
            return;
        }
        response.setChunked(true).putHeader("content-type", format.endsWith("mulaw") ? "audio/basic" : "audio/L16");
        if (mode == Failure.HANG) {
            response.writeHead();
            return;
        }
        speak(response, text, () -> switch (format) {
            case "raw-8khz-8bit-mono-mulaw" -> SpeechFixtures.mulaw8k(text);
            case "raw-16khz-16bit-mono-pcm" -> SpeechFixtures.pcm16k(text);
            default -> SpeechFixtures.pcm24k(text);
        }, FORMATS.get(format), failed -> response.setStatusCode(500).end(failed));
    }

    /** The SSML as XML; a document type is refused, as any external entity would be. */
    private static Document parse(String ssml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        factory.setExpandEntityReferences(false);
        javax.xml.parsers.DocumentBuilder builder = factory.newDocumentBuilder();
        builder.setErrorHandler(new org.xml.sax.helpers.DefaultHandler()); // throws on a fatal error, prints nothing
        return builder.parse(new ByteArrayInputStream(ssml.getBytes(StandardCharsets.UTF_8)));
    }
}
