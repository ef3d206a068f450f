package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * A local Deepgram live-transcription server (the streaming WebSocket API), for tests without the internet.
 *
 * <p>Protocol: {@code GET /v1/listen?encoding=mulaw&sample_rate=8000&channels=1&interim_results=true&endpointing=10
 * &utterance_end_ms=1000&vad_events=true&language=en&keywords=…&model=nova-3}, upgraded to a WebSocket when the header
 * {@code Authorization: Token <key>} carries the configured key (401 otherwise). Binary messages are audio
 * ({@code encoding=mulaw} at 8 kHz or {@code linear16} PCM16 LE, usually 16 kHz). Text messages are control:
 * {@code {"type":"KeepAlive"}} (no-op), {@code {"type":"Finalize"}} (flush the pending transcript now, marked
 * {@code "from_finalize":true}) and {@code {"type":"CloseStream"}} (flush, send {@code Metadata}, close).
 *
 * <p>Recognition is scripted: an energy VAD (RMS over 20 ms windows above {@link #speechThreshold}) cuts the audio
 * into speech segments, and the k-th segment of a connection is "recognised" as the k-th transcript of its script
 * ({@link #script} for every connection, {@link #scriptFor} for the n-th connection, 0-based; past the end of the
 * script, segments give empty transcripts). Timing is in audio time (samples received), so a test can send audio
 * faster than real time. Server messages, exactly as Deepgram sends them:
 * <ul>
 * <li>{@code {"type":"SpeechStarted","channel":[0],"timestamp":t}} when a segment starts;</li>
 * <li>{@code {"type":"Results",…,"is_final":false,"speech_final":false,…}} every 200 ms of speech, with a growing
 * prefix of the segment's words;</li>
 * <li>after {@code endpointing} ms of silence (default 10; {@code endpointing=false} disables it; never less than
 * {@link #hangoverMs}, so that one sentence stays one segment) and then {@link #finalDelayMs} of wall time, the
 * final {@code Results} with {@code is_final:true, speech_final:true};</li>
 * <li>{@code {"type":"UtteranceEnd","channel":[0,1],"last_word_end":t}} after {@code utterance_end_ms} of silence,
 * when the query asked for it;</li>
 * <li>on {@code Finalize}, after {@link #finalizeDelayMs}, the pending segment's final with
 * {@code "from_finalize":true} (an empty one when nothing is pending);</li>
 * <li>after {@link #idleTimeoutMs} (10 s) without any message, a close with code 1011 and reason {@code NET-0001}.</li>
 * </ul>
 * Failure modes ({@link #failure}): refuse the upgrade with 401 or 500, answer garbage text instead of JSON, hang
 * (accept and never answer, never time out), never answer the upgrade request at all, or transcribe normally but
 * close the stream (1011 {@code NET-0000}) at the first {@code Finalize}, as a dropped connection mid-call.
 */
public final class FakeDeepgram implements AutoCloseable {

    /** What the server does instead of transcribing. */
    public enum Failure {
        NONE, REFUSE_401, REFUSE_500, GARBAGE, HANG, HANG_UPGRADE, CLOSE_ON_FINALIZE
    }

    private final Vertx vertx = Vertx.vertx();
    private final String apiKey;
    private final FakeDeepgramAura aura;
    private final HttpServer server;
    private final FakeDeepgramFlux flux;

    private volatile List<String> script = List.of();
    private final Map<Integer, List<String>> scripts = new ConcurrentHashMap<>();
    private volatile long finalDelayMs;
    private volatile long finalizeDelayMs;
    private volatile long idleTimeoutMs = 10_000;
    private volatile double speechThreshold = 500;
    private volatile long hangoverMs = 250;
    private volatile Failure failure = Failure.NONE;

    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger openConnections = new AtomicInteger();
    private final AtomicInteger finalizes = new AtomicInteger();
    private final DoubleAdder audioSeconds = new DoubleAdder();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private final List<String> controlMessages = new CopyOnWriteArrayList<>();
    private volatile Map<String, List<String>> lastQuery = Map.of();
    private volatile String lastAuthorization;

    /** Starts the server on a random loopback port; clients must send {@code Authorization: Token <apiKey>}. */
    public FakeDeepgram(String apiKey) {
        this.apiKey = apiKey;
        this.flux = new FakeDeepgramFlux(vertx, apiKey);
        this.aura = new FakeDeepgramAura(vertx, apiKey);
        this.server = LoopbackServer.start(vertx, this::handle, "Deepgram");
    }

    /** Deepgram's Aura voice ({@code /v1/speak}) on the same server. */
    public FakeDeepgramAura aura() {
        return aura;
    }

    public int port() {
        return server.actualPort();
    }

    /** {@code http://127.0.0.1:<port>}: the provider's base URL, as configured for the real one. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port();
    }

    /** {@code ws://127.0.0.1:<port>/v1/listen} (without a query). */
    public String listenUrl() {
        return "ws://127.0.0.1:" + port() + "/v1/listen";
    }

    /** The transcripts of the speech segments of every connection without its own script. */
    public FakeDeepgram script(String... transcripts) {
        this.script = List.of(transcripts);
        return this;
    }

    /**
     * The transcripts of the speech segments of the {@code connection}-th accepted connection (0-based; refused
     * upgrades do not count).
     */
    public FakeDeepgram scriptFor(int connection, String... transcripts) {
        scripts.put(connection, List.of(transcripts));
        return this;
    }

    /** Wall time between the end of a segment (endpointing) and its final. */
    public FakeDeepgram finalDelayMs(long millis) {
        this.finalDelayMs = millis;
        return this;
    }

    /** Wall time between a {@code Finalize} and its final. */
    public FakeDeepgram finalizeDelayMs(long millis) {
        this.finalizeDelayMs = millis;
        return this;
    }

    /** Wall time without any message after which the connection is closed with 1011 NET-0001 (default 10 s). */
    public FakeDeepgram idleTimeoutMs(long millis) {
        this.idleTimeoutMs = millis;
        return this;
    }

    /** RMS (16-bit units) above which a 20 ms window is speech (default 500). */
    public FakeDeepgram speechThreshold(double rms) {
        this.speechThreshold = rms;
        return this;
    }

    /**
     * Pauses shorter than this (default 250 ms) stay inside a segment: espeak-ng's pauses inside one sentence (stops,
     * commas) reach 200 ms, and each segment takes the next transcript of the script. The final of a segment thus
     * comes after {@code max(endpointing, hangoverMs)} of silence; a {@code Finalize} flushes it at once.
     */
    public FakeDeepgram hangoverMs(long millis) {
        this.hangoverMs = millis;
        return this;
    }

    public FakeDeepgram failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    /** Upgrade requests so far, refused ones included. */
    public int connections() {
        return connections.get();
    }

    /** Connections open now. */
    public int openConnections() {
        return openConnections.get();
    }

    /** Seconds of audio received, over all connections. */
    public double audioSeconds() {
        return audioSeconds.sum();
    }

    public int finalizeCount() {
        return finalizes.get();
    }

    /** The query parameters of the last upgrade request (decoded; a repeated key such as keywords has all values). */
    public Map<String, List<String>> lastQuery() {
        return lastQuery;
    }

    /** The first value of {@code name} in the last query, or null. */
    public String lastQuery(String name) {
        List<String> values = lastQuery.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** The {@code Authorization} header of the last upgrade request. */
    public String lastAuthorization() {
        return lastAuthorization;
    }

    /** Every text message sent to clients, in order (all connections). */
    public List<String> sent() {
        return List.copyOf(sent);
    }

    /** Every text (control) message received from clients, in order (all connections). */
    public List<String> controlMessages() {
        return List.copyOf(controlMessages);
    }

    @Override
    public void close() {
        LoopbackServer.stop(vertx, "Deepgram");
    }

    /** Flux, {@code /v2/listen} on the same server. */
    public FakeDeepgramFlux flux() {
        return flux;
    }

    private void handle(HttpServerRequest request) {
        if ("/v2/listen".equals(request.path())) {
            flux.handle(request);
            return;
        }
        if ("/v1/speak".equals(request.path())) {
            aura.handle(request);
            return;
        }
        if (!"/v1/listen".equals(request.path())) {
            request.response().setStatusCode(404).end();
            return;
        }
        lastAuthorization = request.getHeader("Authorization");
        lastQuery = parseQuery(request.query());
        connections.incrementAndGet();
        Failure mode = failure;
        if (!("Token " + apiKey).equals(lastAuthorization) || mode == Failure.REFUSE_401) {
            request.response().setStatusCode(401).putHeader("content-type", "application/json")
                    .end(new JsonObject().put("err_code", "INVALID_AUTH").put("err_msg", "Invalid credentials.")
                            .put("request_id", UUID.randomUUID().toString()).encode());
            return;
        }
        if (mode == Failure.REFUSE_500) {
            request.response().setStatusCode(500).end("{\"err_code\":\"INTERNAL_SERVER_ERROR\"}");
            return;
        }
        if (mode == Failure.HANG_UPGRADE) {
            // The request is read and never answered: the client's upgrade waits until it gives up.
            request.pause();
            return;
        }
        Map<String, List<String>> query = lastQuery;
        List<String> transcripts = scripts.getOrDefault(accepted.getAndIncrement(), script);
        request.toWebSocket().onSuccess(ws -> {
            openConnections.incrementAndGet();
            ws.closeHandler(v -> openConnections.decrementAndGet());
            if (mode == Failure.HANG) {
                ws.handler(buffer -> { });
                return;
            }
            new Session(ws, query, transcripts, mode == Failure.GARBAGE, mode == Failure.CLOSE_ON_FINALIZE).start();
        });
    }

    private static Map<String, List<String>> parseQuery(String query) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return params;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            params.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return params;
    }

    /** One connection; everything runs on its event loop, so its state needs no locking. */
    private final class Session {
        private final ServerWebSocket ws;
        private final List<String> transcripts;
        private final boolean garbage;
        private final boolean dropOnFinalize;
        private final boolean mulaw;
        private final int sampleRate;
        private final int windowSamples;
        private final Integer endpointingMs;
        private final Integer utteranceEndMs;
        private final boolean interims;
        private final boolean vadEvents;
        private final String requestId = UUID.randomUUID().toString();

        private byte[] pending = new byte[0];
        private long samples;
        private long lastMessageNanos = System.nanoTime();
        private long idleTimer;
        private boolean closed;

        private int segment;
        private boolean inSpeech;
        private boolean segmentOpen;
        private double segmentStart;
        private double lastSpeech;
        private double nextInterim;
        private int interimWords;
        private long finalTimer = -1;
        private boolean utteranceEndPending;

        Session(ServerWebSocket ws, Map<String, List<String>> query, List<String> transcripts, boolean garbage,
                boolean dropOnFinalize) {
            this.ws = ws;
            this.transcripts = transcripts;
            this.garbage = garbage;
            this.dropOnFinalize = dropOnFinalize;
            this.mulaw = !"linear16".equals(first(query, "encoding", "linear16"));
            this.sampleRate = Integer.parseInt(first(query, "sample_rate", mulaw ? "8000" : "16000"));
            this.windowSamples = sampleRate / 50;
            String endpointing = first(query, "endpointing", "10");
            this.endpointingMs = "false".equals(endpointing) ? null : Integer.valueOf(endpointing);
            String utteranceEnd = first(query, "utterance_end_ms", null);
            this.utteranceEndMs = utteranceEnd == null ? null : Integer.valueOf(utteranceEnd);
            this.interims = "true".equals(first(query, "interim_results", "false"));
            this.vadEvents = "true".equals(first(query, "vad_events", "false"));
        }

        void start() {
            ws.binaryMessageHandler(this::audio);
            ws.textMessageHandler(this::control);
            ws.closeHandler(v -> {
                closed = true;
                openConnections.decrementAndGet();
                vertx.cancelTimer(idleTimer);
            });
            idleTimer = vertx.setPeriodic(Math.max(10, Math.min(500, idleTimeoutMs / 4)), id -> {
                if (System.nanoTime() - lastMessageNanos > TimeUnit.MILLISECONDS.toNanos(idleTimeoutMs)) {
                    vertx.cancelTimer(idleTimer);
                    ws.close((short) 1011, "NET-0001");
                }
            });
        }

        private void audio(Buffer buffer) {
            lastMessageNanos = System.nanoTime();
            byte[] bytes = buffer.getBytes();
            audioSeconds.add((mulaw ? bytes.length : bytes.length / 2.0) / sampleRate);
            byte[] all = new byte[pending.length + bytes.length];
            System.arraycopy(pending, 0, all, 0, pending.length);
            System.arraycopy(bytes, 0, all, pending.length, bytes.length);
            int windowBytes = mulaw ? windowSamples : windowSamples * 2;
            int offset = 0;
            while (all.length - offset >= windowBytes) {
                short[] window = mulaw ? SpeechFixtures.decodeMulaw(all, offset, windowBytes)
                        : SpeechFixtures.decodePcm16le(all, offset, windowBytes);
                offset += windowBytes;
                samples += windowSamples;
                window(SpeechFixtures.rms(window) > speechThreshold);
            }
            pending = java.util.Arrays.copyOfRange(all, offset, all.length);
        }

        /** One 20 ms window, {@code now} = audio time at its end. */
        private void window(boolean speech) {
            double now = (double) samples / sampleRate;
            if (speech) {
                lastSpeech = now;
                utteranceEndPending = utteranceEndMs != null;
                if (!inSpeech) {
                    inSpeech = true;
                    if (!segmentOpen) {
                        segmentOpen = true;
                        segmentStart = now - 0.02;
                        nextInterim = segmentStart + 0.2;
                        interimWords = 0;
                        if (vadEvents) {
                            send(new JsonObject().put("type", "SpeechStarted").put("channel", new JsonArray().add(0))
                                    .put("timestamp", round(segmentStart)));
                        }
                    }
                }
                if (interims && now >= nextInterim) {
                    nextInterim += 0.2;
                    List<String> words = words(segment);
                    interimWords = Math.min(words.size(), interimWords + 1);
                    if (interimWords > 0) {
                        send(results(words.subList(0, interimWords), segmentStart, now, false, false));
                    }
                }
                return;
            }
            double silenceMs = (now - lastSpeech) * 1000;
            if (inSpeech && endpointingMs != null && silenceMs >= Math.max(endpointingMs, hangoverMs)) {
                inSpeech = false;
                long delay = finalDelayMs;
                if (delay <= 0) {
                    sendFinal(false);
                } else {
                    finalTimer = vertx.setTimer(delay, id -> sendFinal(false));
                }
            } else if (inSpeech && endpointingMs == null && silenceMs >= hangoverMs) {
                inSpeech = false;
            }
            if (utteranceEndPending && (now - lastSpeech) * 1000 >= utteranceEndMs) {
                utteranceEndPending = false;
                send(new JsonObject().put("type", "UtteranceEnd").put("channel", new JsonArray().add(0).add(1))
                        .put("last_word_end", round(lastSpeech)));
            }
        }

        /** Sends the open segment's final (no-op when it was already sent). */
        private void sendFinal(boolean fromFinalize) {
            finalTimer = -1;
            if (!segmentOpen) {
                return;
            }
            segmentOpen = false;
            inSpeech = false;
            JsonObject result = results(words(segment), segmentStart, Math.max(lastSpeech, segmentStart), true, true);
            if (fromFinalize) {
                result.put("from_finalize", true);
            }
            segment++;
            send(result);
        }

        private void control(String text) {
            lastMessageNanos = System.nanoTime();
            controlMessages.add(text);
            String type;
            try {
                type = new JsonObject(text).getString("type", "");
            } catch (RuntimeException e) {
                ws.close((short) 1008, "DATA-0000");
                return;
            }
            switch (type) {
                case "Finalize" -> {
                    finalizes.incrementAndGet();
                    if (dropOnFinalize) {
                        ws.close((short) 1011, "NET-0000");
                        return;
                    }
                    vertx.setTimer(Math.max(1, finalizeDelayMs), id -> {
                        if (finalTimer >= 0) {
                            vertx.cancelTimer(finalTimer);
                        }
                        if (segmentOpen) {
                            sendFinal(true);
                        } else {
                            double now = (double) samples / sampleRate;
                            send(results(List.of(), now, now, true, false).put("from_finalize", true));
                        }
                    });
                }
                case "CloseStream" -> {
                    if (finalTimer >= 0) {
                        vertx.cancelTimer(finalTimer);
                    }
                    sendFinal(false);
                    send(new JsonObject().put("type", "Metadata").put("transaction_key", "deprecated")
                            .put("request_id", requestId).put("sha256", "0".repeat(64))
                            .put("created", java.time.Instant.now().toString())
                            .put("duration", round((double) samples / sampleRate)).put("channels", 1)
                            .put("models", new JsonArray().add(UUID.nameUUIDFromBytes(requestId.getBytes()).toString()))
                            .put("model_info", new JsonObject()));
                    ws.close((short) 1000);
                }
                default -> {
                    // KeepAlive and anything else: nothing to do (the idle timer was reset above).
                }
            }
        }

        private JsonObject results(List<String> words, double start, double end, boolean isFinal, boolean speechFinal) {
            JsonArray wordArray = new JsonArray();
            double step = words.isEmpty() ? 0 : (end - start) / words.size();
            for (int i = 0; i < words.size(); i++) {
                String word = words.get(i);
                wordArray.add(new JsonObject().put("word", word.toLowerCase().replaceAll("[^\\p{L}\\p{N}']", ""))
                        .put("start", round(start + i * step)).put("end", round(start + (i + 1) * step))
                        .put("confidence", 0.99).put("punctuated_word", word));
            }
            return new JsonObject().put("type", "Results").put("channel_index", new JsonArray().add(0).add(1))
                    .put("duration", round(end - start)).put("start", round(start))
                    .put("is_final", isFinal).put("speech_final", speechFinal)
                    .put("channel", new JsonObject().put("alternatives", new JsonArray().add(new JsonObject()
                            .put("transcript", String.join(" ", words)).put("confidence", 0.99)
                            .put("words", wordArray))))
                    .put("metadata", new JsonObject().put("request_id", requestId)
                            .put("model_info", new JsonObject().put("name", "general").put("version", "fake")
                                    .put("arch", "nova-3"))
                            .put("model_uuid", UUID.nameUUIDFromBytes(requestId.getBytes()).toString()));
        }

        private List<String> words(int k) {
            if (k >= transcripts.size() || transcripts.get(k).isBlank()) {
                return List.of();
            }
            return List.of(transcripts.get(k).trim().split("\\s+"));
        }

        private void send(JsonObject message) {
            if (closed) {
                return;
            }
            String text = garbage ? "<html>garbage " + message.getString("type") + "</html>" : message.encode();
            sent.add(text);
            ws.writeTextMessage(text);
        }

        private static String first(Map<String, List<String>> query, String name, String fallback) {
            List<String> values = query.get(name);
            return values == null || values.isEmpty() ? fallback : values.get(0);
        }

        private static double round(double seconds) {
            return Math.round(seconds * 1000) / 1000.0;
        }
    }
}
