package dev.voiceplane.runtime.fake;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * A customer's own transcription server, as the hosted platform's "custom transcriber" guide and its API reference
 * ({@code CustomTranscriber.server}) describe it: a WebSocket at any path (here {@value #PATH}); the platform's first
 * text frame is {@code {"type":"start","encoding":"linear16","container":"raw","sampleRate":…,"channels":2}}, then
 * binary frames of 16-bit little-endian PCM with the channels interleaved (channel 0 the customer, channel 1 the
 * assistant); the server answers {@code {"type":"transcriber-response","transcription":"…","channel":"customer"}} as
 * it has transcriptions (the guide's server sends {@code {"type":"error","error":"…"}} when its own transcription
 * fails). The server's {@code secret} comes in {@code x-vapi-secret}: when one is configured, an upgrade without it
 * is refused with 401.
 *
 * <p>Recognition is scripted ({@link ScriptedRecognizer}, channel 0 only): a segment's transcription is sent
 * {@value #ENDPOINT_MS} ms of silence after it (preceded, when {@link #alsoAssistant} is set, by a transcription for the
 * assistant's channel). Audio before the {@code start} frame, or a {@code start} that is not linear16/raw, is closed
 * with 1003.
 *
 * <p>Failure modes: a refused upgrade (401, 429, 500), a stream that never answers, an upgrade never answered, text
 * that is not JSON, the guide's {@code error} message at the first transcription, and a close (1011) when the first
 * segment starts.
 */
public final class FakeCustomTranscriber implements AutoCloseable {

    public enum Failure {
        NONE, REFUSE_401, REFUSE_429, REFUSE_500, HANG, HANG_UPGRADE, GARBAGE, ERROR_MESSAGE, CLOSE_MID_STREAM
    }

    public static final String PATH = "/api/custom-transcriber";
    static final long ENDPOINT_MS = 500;

    private final Vertx vertx = Vertx.vertx();
    private final HttpServer server;
    private volatile String secret;
    private volatile List<String> script = List.of();
    private volatile String assistantText;
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger connections = new AtomicInteger();
    private final DoubleAdder audioSeconds = new DoubleAdder();
    private final List<JsonObject> starts = new CopyOnWriteArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private volatile MultiMap lastHeaders = MultiMap.caseInsensitiveMultiMap();

    public FakeCustomTranscriber() {
        this.server = LoopbackServer.start(vertx, this::handle, "custom transcriber");
    }

    /** {@code ws://127.0.0.1:<port>/api/custom-transcriber}, as an assistant's {@code transcriber.server.url}. */
    public String url() {
        return "ws://127.0.0.1:" + server.actualPort() + PATH;
    }

    /** The secret the server requires in {@code x-vapi-secret} (null: none). */
    public FakeCustomTranscriber secret(String secret) {
        this.secret = secret;
        return this;
    }

    public FakeCustomTranscriber script(String... transcripts) {
        this.script = List.of(transcripts);
        return this;
    }

    /** Also answers {@code text} for the assistant's channel before each customer transcription (null: never). */
    public FakeCustomTranscriber alsoAssistant(String text) {
        this.assistantText = text;
        return this;
    }

    public FakeCustomTranscriber failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    public int connections() {
        return connections.get();
    }

    /** Seconds of audio received (per channel), all connections. */
    public double audioSeconds() {
        return audioSeconds.sum();
    }

    /** The {@code start} frames received. */
    public List<JsonObject> starts() {
        return List.copyOf(starts);
    }

    public List<String> sent() {
        return List.copyOf(sent);
    }

    /** The headers of the last upgrade request. */
    public MultiMap lastHeaders() {
        return lastHeaders;
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "custom transcriber");
    }

    private void handle(HttpServerRequest request) {
        if (!PATH.equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        connections.incrementAndGet();
        lastHeaders = MultiMap.caseInsensitiveMultiMap().addAll(request.headers());
        Failure mode = failure;
        String required = secret;
        if (required != null && !required.equals(request.getHeader("x-vapi-secret")) || mode == Failure.REFUSE_401) {
            request.response().setStatusCode(401).end("Unauthorized");
            return;
        }
        if (mode == Failure.REFUSE_429 || mode == Failure.REFUSE_500) {
            request.response().setStatusCode(mode == Failure.REFUSE_429 ? 429 : 500).end();
            return;
        }
        if (mode == Failure.HANG_UPGRADE) {
            request.pause();
            return;
        }
        List<String> transcripts = script;
        request.toWebSocket().onSuccess(ws -> {
            if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
                return;
            }
            new Session(ws, transcripts, mode).start();
        });
    }

    private final class Session implements ScriptedRecognizer.Events {
        private final ServerWebSocket ws;
        private final List<String> transcripts;
        private final Failure mode;
        private ScriptedRecognizer recognizer;
        private int channels;
        private int sampleRate;
        private boolean closed;

        Session(ServerWebSocket ws, List<String> transcripts, Failure mode) {
            this.ws = ws;
            this.transcripts = transcripts;
            this.mode = mode;
        }

        void start() {
            ws.closeHandler(v -> closed = true);
            ws.textMessageHandler(this::text);
            ws.binaryMessageHandler(this::audio);
        }

        private void text(String text) {
            JsonObject message = new JsonObject(text);
            if (!"start".equals(message.getString("type"))) {
                return;
            }
            starts.add(message);
            if (!"linear16".equals(message.getString("encoding")) || !"raw".equals(message.getString("container"))) {
                ws.close((short) 1003, "linear16 raw audio expected");
                return;
            }
            channels = message.getInteger("channels", 1);
            sampleRate = message.getInteger("sampleRate", 16000);
            recognizer = new ScriptedRecognizer(transcripts, sampleRate, 500, ENDPOINT_MS, 200, this);
        }

        private void audio(Buffer buffer) {
            if (recognizer == null) {
                ws.close((short) 1003, "audio before start");
                return;
            }
            byte[] bytes = buffer.getBytes();
            int frames = bytes.length / (2 * channels);
            audioSeconds.add((double) frames / sampleRate);
            short[] customer = new short[frames];
            for (int i = 0; i < frames; i++) {
                int at = i * 2 * channels;
                customer[i] = (short) ((bytes[at] & 0xFF) | (bytes[at + 1] << 8));
            }
            recognizer.samples(customer);
        }

        @Override
        public void started(double at) {
            if (mode == Failure.CLOSE_MID_STREAM) {
                ws.close((short) 1011, "transcription backend went away");
                closed = true;
            }
        }

        @Override
        public void partial(List<String> words, double at) {
        }

        @Override
        public void ended(String transcript, double start, double end) {
            if (mode == Failure.ERROR_MESSAGE) {
                send(new JsonObject().put("type", "error").put("error", "Transcription service error"));
                return;
            }
            if (transcript.isBlank()) {
                return;
            }
            if (assistantText != null) {
                send(new JsonObject().put("type", "transcriber-response").put("transcription", assistantText)
                        .put("channel", "assistant"));
            }
            send(new JsonObject().put("type", "transcriber-response").put("transcription", transcript)
                    .put("channel", "customer"));
        }

        private void send(JsonObject message) {
            if (closed) {
                return;
            }
            String text = mode == Failure.GARBAGE ? "<html>" + message.getString("type") + "</html>" : message.encode();
            sent.add(text);
            ws.writeTextMessage(text);
        }
    }
}
