package dev.voiceplane.runtime.provider;

import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.audio.Pcm16;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.function.Function;

/**
 * A text-to-speech provider whose HTTP answer streams raw audio (chunked, no header): ElevenLabs'
 * {@code /v1/text-to-speech/{voice}/stream} and OpenAI's {@code /v1/audio/speech}. One request per text chunk,
 * pooled keep-alive connections (the calling event loop's: {@link EventLoopHttpClients}); the answer's bytes are
 * handed on as they arrive, in the call's format (ElevenLabs is asked for it directly; OpenAI's 24 kHz PCM is
 * resampled).
 *
 * <p>A voice fails when it sends no audio within {@code firstAudioMillis} of the request, answers an HTTP error, or
 * answers 2xx with text (JSON, HTML: an error page or a proxy's answer) where audio was asked for: such bytes would
 * otherwise be played to the caller as noise.
 */
public final class HttpVoice implements TextToSpeech {

    /** How one provider is asked: URL, headers, body and its content type for a text. */
    public record Request(String url, java.util.Map<String, String> headers, String body, String contentType) {

        /** A JSON body. */
        public Request(String url, java.util.Map<String, String> headers, String body) {
            this(url, headers, body, "application/json");
        }
    }

    private final Vertx vertx;
    private final String provider;
    private final EventLoopHttpClients http;
    private final Function<String, Request> requests;
    private final AudioFormat callFormat;
    private final Integer pcmRateOfAnswer;
    private final long timeoutMillis;
    private final long firstAudioMillis;

    /**
     * @param pcmRateOfAnswer null when the provider answers in the call's format, else the rate of its PCM16 answer
     */
    public HttpVoice(Vertx vertx, EventLoopHttpClients http, String provider, Function<String, Request> requests,
            AudioFormat callFormat, Integer pcmRateOfAnswer, long timeoutMillis, long firstAudioMillis) {
        this.vertx = vertx;
        this.provider = provider;
        this.http = http;
        this.requests = requests;
        this.callFormat = callFormat;
        this.pcmRateOfAnswer = pcmRateOfAnswer;
        this.timeoutMillis = timeoutMillis;
        this.firstAudioMillis = firstAudioMillis;
    }

    /** Whether a 2xx answer's content type is text rather than audio (absent or binary types are taken as audio). */
    static boolean notAudio(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.toLowerCase(java.util.Locale.ROOT);
        return type.startsWith("text/") || type.contains("json") || type.contains("xml") || type.contains("html");
    }

    @Override
    public Runnable speak(String text, Listener listener) {
        Request ask = requests.apply(text);
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(ask.url())
                .putHeader("Content-Type", ask.contentType()).setIdleTimeout(timeoutMillis);
        ask.headers().forEach(options::putHeader);
        Speech speech = new Speech(listener);
        speech.armDeadline(firstAudioMillis, "no audio within " + firstAudioMillis + " ms");
        speech.send(http, options, Buffer.buffer(ask.body()), response -> {
            // Set first: a refused answer is reset below, and a response without a handler logs the reset.
            response.exceptionHandler(failure -> speech.fail(ProviderError.unavailable(provider, "stream failed: "
                    + failure.getMessage())));
            // A refused answer is read to its end, not reset: once it ended, its keep-alive connection is back in the
            // pool, and a reset would close it under another call's request (found by SoakTest, 2026-11-26).
            if (response.statusCode() / 100 != 2) {
                speech.failAfterReading(response, ProviderError.ofStatus(provider, response.statusCode(),
                        "answered " + response.statusCode()));
                return;
            }
            String contentType = response.getHeader("Content-Type");
            if (notAudio(contentType)) {
                speech.failAfterReading(response, ProviderError.protocol(provider, "answered "
                        + response.statusCode() + " with " + contentType + ", not audio"));
                return;
            }
            response.handler(speech::bytes);
            response.endHandler(ignored -> speech.done());
        });
        return speech::cancel;
    }

    private final class Speech extends ProviderExchange {
        private final Listener listener;
        private byte carry;
        private boolean carrying;

        Speech(Listener listener) {
            super(vertx, provider);
            this.listener = listener;
        }

        void bytes(Buffer buffer) {
            if (finished || cancelled) {
                return;
            }
            byte[] audio = buffer.getBytes();
            if (pcmRateOfAnswer != null) {
                audio = convert(audio);
            }
            if (audio.length > 0) {
                stopDeadline();
                listener.audio(audio);
            }
        }

        /** PCM16 at the answer's rate to the call's format; an odd byte waits for the next chunk. */
        private byte[] convert(byte[] chunk) {
            byte[] joined = chunk;
            if (carrying) {
                joined = new byte[chunk.length + 1];
                joined[0] = carry;
                System.arraycopy(chunk, 0, joined, 1, chunk.length);
                carrying = false;
            }
            int even = joined.length & ~1;
            if (even < joined.length) {
                carry = joined[joined.length - 1];
                carrying = true;
            }
            return callFormat.fromPcm(Pcm16.samples(joined, 0, even), pcmRateOfAnswer);
        }

        void done() {
            if (finish()) {
                listener.done();
            }
        }

        @Override
        protected void failed(ProviderError error) {
            listener.failed(error);
        }

        /** Fails now and discards the answer's body to its end, leaving the connection to the pool. */
        void failAfterReading(HttpClientResponse response, ProviderError error) {
            if (finish()) {
                response.handler(ignored -> { });
                response.endHandler(ignored -> { });
                listener.failed(error);
            }
        }
    }
}
