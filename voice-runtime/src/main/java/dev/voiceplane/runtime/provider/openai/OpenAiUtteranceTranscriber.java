package dev.voiceplane.runtime.provider.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceplane.runtime.audio.AudioFormat;
import dev.voiceplane.runtime.audio.MuLaw;
import dev.voiceplane.runtime.audio.Pcm16;
import dev.voiceplane.runtime.audio.Wav;
import dev.voiceplane.runtime.provider.EventLoopHttpClients;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderExchange;
import dev.voiceplane.runtime.provider.SpeechToText;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.UUID;

/**
 * Per-utterance transcription against OpenAI's {@code POST /audio/transcriptions} or any server that speaks it (a
 * self-hosted Whisper: faster-whisper-server, whisper.cpp's server, LocalAI, vLLM): the caller's audio since the last
 * end of speech is held as PCM16 at the call's rate (μ-law decoded) and, when the caller stops speaking, sent as one
 * WAV file ({@code multipart/form-data}: {@code file}, {@code model}, {@code language} when the assistant has one,
 * {@code response_format=json}); the answer's {@code text} is the utterance's segment, which ends the turn.
 *
 * <p>What is held starts at the caller's speech: a quiet lead (20 ms windows under {@value #QUIET_DBFS} dBFS, the
 * caller listening while the assistant spoke) is dropped but for {@value #LEAD_MILLIS} ms before the first louder
 * window, and at most {@value #MAX_SECONDS} s are kept (the oldest dropped). An utterance left with no audio is an empty
 * segment at once, sent nowhere. Answers reach the call in the order of the utterances. The answer must come within the
 * transcriber deadline; an HTTP error fails the stage by its status, an answer that is not JSON with a {@code text} as
 * a protocol error. The usage is the seconds of audio sent.
 */
final class OpenAiUtteranceTranscriber implements SpeechToText {

    static final double QUIET_DBFS = -50;
    static final int LEAD_MILLIS = 300;
    static final int MAX_SECONDS = 60;

    private final Vertx vertx;
    private final EventLoopHttpClients http;
    private final ObjectMapper json;
    private final String url;
    private final String apiKey;
    private final String model;
    private final String language;
    private final AudioFormat format;
    private final Listener listener;
    private final long deadlineMillis;
    private final long timeoutMillis;
    /** PCM16 at the call's rate, 20 ms windows from the first one past the quiet lead (and the lead kept before it). */
    private final ArrayDeque<byte[]> held = new ArrayDeque<>();
    private final ArrayDeque<Utterance> inFlight = new ArrayDeque<>();
    private int heldBytes;
    private boolean heardSpeech;
    private long bytesSent;
    private boolean over;

    /** One utterance sent: its answer, once it came, waits for the ones before it. */
    private static final class Utterance {
        Exchange exchange;
        String text;
    }

    OpenAiUtteranceTranscriber(Vertx vertx, EventLoopHttpClients http, ObjectMapper json, String url, String apiKey,
            String model, String language, AudioFormat format, Listener listener, long deadlineMillis,
            long timeoutMillis) {
        this.vertx = vertx;
        this.http = http;
        this.json = json;
        this.url = url;
        this.apiKey = apiKey;
        this.model = model;
        this.language = language;
        this.format = format;
        this.listener = listener;
        this.deadlineMillis = deadlineMillis;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public void send(byte[] audio) {
        if (over) {
            return;
        }
        byte[] pcm = format == AudioFormat.ULAW_8K ? Pcm16.bytes(MuLaw.decode(audio)) : audio;
        boolean quiet = Pcm16.dbfs(Pcm16.samples(pcm)) < QUIET_DBFS;
        held.add(pcm);
        heldBytes += pcm.length;
        int keep = !heardSpeech && quiet ? format.sampleRate() * 2 * LEAD_MILLIS / 1000
                : format.sampleRate() * 2 * MAX_SECONDS;
        heardSpeech |= !quiet;
        while (heldBytes - held.peekFirst().length >= keep) {
            heldBytes -= held.pollFirst().length;
        }
    }

    @Override
    public void finalizeTurn() {
        if (over) {
            return;
        }
        Utterance utterance = new Utterance();
        inFlight.add(utterance);
        if (!heardSpeech) {
            held.clear();
            heldBytes = 0;
            utterance.text = "";
            deliver();
            return;
        }
        ByteArrayOutputStream pcm = new ByteArrayOutputStream();
        held.forEach(pcm::writeBytes);
        held.clear();
        heldBytes = 0;
        heardSpeech = false;
        byte[] audio = pcm.toByteArray();
        bytesSent += audio.length;
        request(utterance, Wav.pcm16(audio, format.sampleRate()));
    }

    private void request(Utterance utterance, byte[] wav) {
        String boundary = "voiceplane-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream(wav.length + 1024);
        part(body, boundary, "Content-Disposition: form-data; name=\"file\"; filename=\"utterance.wav\"\r\n"
                + "Content-Type: audio/wav\r\n", wav);
        field(body, boundary, "model", model);
        if (language != null && !language.isBlank()) {
            field(body, boundary, "language", language);
        }
        field(body, boundary, "response_format", "json");
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url)
                .putHeader("Content-Type", "multipart/form-data; boundary=" + boundary)
                .putHeader("Accept", "application/json").setIdleTimeout(timeoutMillis);
        if (apiKey != null) {
            options.putHeader("Authorization", "Bearer " + apiKey);
        }
        Exchange exchange = new Exchange(utterance);
        utterance.exchange = exchange;
        exchange.armDeadline(deadlineMillis, "no transcription within " + deadlineMillis + " ms");
        exchange.send(http, options, Buffer.buffer(body.toByteArray()), response -> response.body().onComplete(read -> {
            exchange.answerEnded();
            if (read.failed()) {
                exchange.fail(ProviderError.unavailable("openai", "answer failed: " + read.cause().getMessage()));
            } else if (response.statusCode() / 100 != 2) {
                exchange.fail(ProviderError.ofStatus("openai", response.statusCode(), "answered "
                        + response.statusCode()));
            } else {
                exchange.answer(read.result());
            }
        }));
    }

    private static void field(ByteArrayOutputStream body, String boundary, String name, String value) {
        part(body, boundary, "Content-Disposition: form-data; name=\"" + name + "\"\r\n",
                value.getBytes(StandardCharsets.UTF_8));
    }

    private static void part(ByteArrayOutputStream body, String boundary, String headers, byte[] content) {
        body.writeBytes(("--" + boundary + "\r\n" + headers + "\r\n").getBytes(StandardCharsets.UTF_8));
        body.writeBytes(content);
        body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
    }

    /** Hands on the answers at the head of the line, in order. */
    private void deliver() {
        while (!over && !inFlight.isEmpty() && inFlight.peekFirst().text != null) {
            listener.segment(inFlight.pollFirst().text, true);
        }
    }

    @Override
    public double secondsSent() {
        return (double) bytesSent / (format.sampleRate() * 2);
    }

    @Override
    public void close() {
        if (over) {
            return;
        }
        over = true;
        held.clear();
        inFlight.forEach(utterance -> {
            if (utterance.exchange != null) {
                utterance.exchange.cancel();
            }
        });
        inFlight.clear();
    }

    private final class Exchange extends ProviderExchange {
        private final Utterance utterance;

        Exchange(Utterance utterance) {
            super(vertx, "openai");
            this.utterance = utterance;
        }

        /** The answer ended: its connection may already serve another request, so nothing may reset it now. */
        void answerEnded() {
            request = null;
        }

        void answer(Buffer body) {
            JsonNode answer;
            try {
                answer = json.readTree(body.getBytes());
            } catch (Exception e) {
                fail(ProviderError.protocol("openai", "answered a transcription that is not JSON"));
                return;
            }
            if (!answer.path("text").isTextual()) {
                fail(ProviderError.protocol("openai", "answered a transcription without text"));
                return;
            }
            if (finish()) {
                utterance.text = answer.path("text").asText().trim();
                deliver();
            }
        }

        @Override
        protected void failed(ProviderError error) {
            if (!over) {
                close();
                listener.failed(error);
            }
        }
    }
}
