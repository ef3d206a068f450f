package dev.voiceplane.runtime.fake;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Deepgram's Aura text-to-speech WebSocket ({@code /v1/speak}), served by {@link FakeDeepgram}'s server (one base URL,
 * {@code VOICE_DEEPGRAM_URL}, for Deepgram's transcriber and voice, as the real one has), for tests without the
 * internet.
 *
 * <p>Protocol, as Deepgram documents it (developers.deepgram.com: "Continuous Text Stream" reference and its AsyncAPI
 * spec, "Flush", "Clear", "Close", "TTS Troubleshooting WebSocket, NET, and DATA Errors"; the official Python SDK's
 * {@code speak.v1} types): {@code GET /v1/speak?model=aura-…&encoding=mulaw|linear16|alaw&sample_rate=…&speed=…}
 * upgraded when {@code Authorization: Token <key>} carries the key (401 {@code {"err_code":"INVALID_AUTH",…}}
 * otherwise). On open the server sends {@code {"type":"Metadata","request_id","model_name","model_version",
 * "model_uuid"}}. Client messages: {@code {"type":"Speak","text"}} adds to the socket's one text buffer;
 * {@code {"type":"Flush"}} speaks the buffer: after {@link #ttfbMs}, binary frames of the text really spoken
 * (espeak-ng) in the format asked ({@code mulaw} 8 kHz, {@code linear16} 16 or 24 kHz; the fake makes no other), in
 * chunks of {@link #chunkMs} sent at {@link #realTimeFactor} times real time (0, the default: as fast as possible),
 * then {@code {"type":"Flushed","sequence_id"}}; flushes are spoken in order, one at a time. {@code {"type":"Clear"}}
 * drops the buffer and whatever is being or waiting to be spoken, answered {@code {"type":"Cleared","sequence_id"}};
 * {@code {"type":"Close"}} closes with 1000; a message that is not JSON closes with 1008 {@code DATA-0000}. At most
 * {@link #flushLimit} Flush per 60 s (Deepgram's documented 20): past it, a {@code {"type":"Warning","description",
 * "code"}} (the code is the fake's own: the docs name none) and the Flush is ignored.
 *
 * <p>Failure modes ({@link #failure}): refuse the upgrade with 401, 429 or 500; hang (accept, never answer); garbage
 * (text frames that are not JSON instead of audio, at a Flush); or close with 1011 {@code NET-0000} at a Flush (a
 * connection dropped mid-call). The last two are read at each Flush, so a test may switch them mid-call.
 */
public final class FakeDeepgramAura {

    public enum Failure {
        NONE, REFUSE_401, REFUSE_429, REFUSE_500, HANG, GARBAGE, CLOSE_ON_FLUSH
    }

    private final Vertx vertx;
    private final String apiKey;
    private volatile long ttfbMs;
    private volatile double realTimeFactor;
    private volatile int chunkMs = 100;
    private volatile int flushLimit = 20;
    private volatile Failure failure = Failure.NONE;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger openConnections = new AtomicInteger();
    private final List<String> messages = new CopyOnWriteArrayList<>();
    private final List<String> spoken = new CopyOnWriteArrayList<>();
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private volatile String lastAuthorization;
    private volatile String lastQuery;
    private volatile HttpServerRequest lastRequest;
    private final Set<ServerWebSocket> sockets = ConcurrentHashMap.newKeySet();

    FakeDeepgramAura(Vertx vertx, String apiKey) {
        this.vertx = vertx;
        this.apiKey = apiKey;
    }

    /** Wall time between a Flush and its first audio. */
    public FakeDeepgramAura ttfbMs(long millis) {
        this.ttfbMs = millis;
        return this;
    }

    /** Audio is sent this many times faster than real time (1 = real time); 0 (default) = as fast as possible. */
    public FakeDeepgramAura realTimeFactor(double factor) {
        this.realTimeFactor = factor;
        return this;
    }

    /** Audio per binary frame (default 100 ms). */
    public FakeDeepgramAura chunkMs(int millis) {
        this.chunkMs = millis;
        return this;
    }

    /** Flushes taken per 60 s and socket (default 20, Deepgram's). */
    public FakeDeepgramAura flushLimit(int limit) {
        this.flushLimit = limit;
        return this;
    }

    public FakeDeepgramAura failure(Failure failure) {
        this.failure = failure;
        return this;
    }

    /** Upgrade requests to {@code /v1/speak} so far, refused ones included. */
    public int connections() {
        return connections.get();
    }

    public int openConnections() {
        return openConnections.get();
    }

    /** Every text message received, in order (all connections). */
    public List<String> messages() {
        return List.copyOf(messages);
    }

    /** The messages received of {@code type} ({@code Speak}, {@code Flush}, {@code Clear}, ...), in order. */
    public List<JsonObject> messages(String type) {
        return messages.stream().map(text -> {
            try {
                return new JsonObject(text);
            } catch (RuntimeException e) {
                return new JsonObject();
            }
        }).filter(message -> type.equals(message.getString("type"))).toList();
    }

    /** The text of every Flush spoken to its end (not cleared), in order. */
    public List<String> spoken() {
        return List.copyOf(spoken);
    }

    /** Every Warning sent. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    public String lastAuthorization() {
        return lastAuthorization;
    }

    /** A query parameter of the last upgrade request, or null. */
    public String lastQuery(String name) {
        HttpServerRequest request = lastRequest;
        return request == null ? null : request.getParam(name);
    }

    /** The last upgrade request's query string. */
    public String lastQuery() {
        return lastQuery;
    }

    /** Closes every open connection (1011 {@code NET-0001}, Deepgram's close for a socket left without messages). */
    public void dropConnections() {
        for (ServerWebSocket socket : sockets) {
            socket.close((short) 1011, "NET-0001");
        }
    }

    void handle(HttpServerRequest request) {
        connections.incrementAndGet();
        lastAuthorization = request.getHeader("Authorization");
        lastQuery = request.query();
        lastRequest = request;
        Failure mode = failure;
        if (!("Token " + apiKey).equals(lastAuthorization) || mode == Failure.REFUSE_401) {
            refuse(request, 401, "INVALID_AUTH", "Invalid credentials.");
            return;
        }
        if (mode == Failure.REFUSE_429) {
            refuse(request, 429, "TOO_MANY_REQUESTS", "Too many requests. Please try again later.");
            return;
        }
        if (mode == Failure.REFUSE_500) {
            refuse(request, 500, "INTERNAL_SERVER_ERROR", "Internal server error.");
            return;
        }
        String model = request.getParam("model", "aura-asteria-en");
        String encoding = request.getParam("encoding", "linear16");
        String rate = request.getParam("sample_rate", "mulaw".equals(encoding) ? "8000" : "24000");
        int bytesPerMs;
        switch (encoding + "/" + rate) {
            case "mulaw/8000" -> bytesPerMs = 8;
            case "linear16/16000" -> bytesPerMs = 32;
            case "linear16/24000" -> bytesPerMs = 48;
            default -> {
                refuse(request, 400, "UNSUPPORTED_AUDIO_FORMAT", "The fake speaks mulaw 8000 and linear16 16000 or"
                        + " 24000, not " + encoding + " " + rate);
                return;
            }
        }
        if (!model.startsWith("aura")) {
            refuse(request, 400, "INVALID_QUERY_PARAMETER", "No such model: " + model);
            return;
        }
        request.toWebSocket().onSuccess(ws -> {
            openConnections.incrementAndGet();
            sockets.add(ws);
            if (mode == Failure.HANG) {
                ws.closeHandler(v -> {
                    sockets.remove(ws);
                    openConnections.decrementAndGet();
                });
                ws.textMessageHandler(messages::add);
                return;
            }
            new Session(ws, model, encoding + "/" + rate, bytesPerMs).start();
        });
    }

    private static void refuse(HttpServerRequest request, int status, String code, String message) {
        request.response().setStatusCode(status).putHeader("content-type", "application/json")
                .putHeader("dg-error", message)
                .end(new JsonObject().put("err_code", code).put("err_msg", message)
                        .put("request_id", UUID.randomUUID().toString()).encode());
    }

    /** One connection; everything runs on its event loop. */
    private final class Session {
        private final ServerWebSocket ws;
        private final String model;
        private final String format;
        private final int bytesPerMs;
        private final StringBuilder buffer = new StringBuilder();
        private final ArrayDeque<String> flushed = new ArrayDeque<>();
        private final ArrayDeque<Long> flushTimes = new ArrayDeque<>();
        private Runnable speaking;
        private int sequence;
        private boolean closed;

        Session(ServerWebSocket ws, String model, String format, int bytesPerMs) {
            this.ws = ws;
            this.model = model;
            this.format = format;
            this.bytesPerMs = bytesPerMs;
        }

        void start() {
            ws.closeHandler(v -> {
                closed = true;
                sockets.remove(ws);
                openConnections.decrementAndGet();
                stopSpeaking();
            });
            ws.textMessageHandler(this::message);
            send(new JsonObject().put("type", "Metadata").put("request_id", UUID.randomUUID().toString())
                    .put("model_name", model).put("model_version", "2025-04-07.0")
                    .put("model_uuid", UUID.nameUUIDFromBytes(model.getBytes()).toString()));
        }

        private void message(String text) {
            messages.add(text);
            JsonObject message;
            try {
                message = new JsonObject(text);
            } catch (RuntimeException e) {
                ws.close((short) 1008, "DATA-0000");
                return;
            }
            switch (message.getString("type", "")) {
                case "Speak" -> buffer.append(message.getString("text", ""));
                case "Flush" -> flush();
                case "Clear" -> {
                    buffer.setLength(0);
                    flushed.clear();
                    stopSpeaking();
                    send(new JsonObject().put("type", "Cleared").put("sequence_id", sequence++));
                }
                case "Close" -> {
                    stopSpeaking();
                    ws.close((short) 1000);
                }
                default -> ws.close((short) 1008, "DATA-0000");
            }
        }

        private void flush() {
            long now = System.nanoTime();
            while (!flushTimes.isEmpty() && now - flushTimes.peek() >= 60_000_000_000L) {
                flushTimes.poll();
            }
            if (flushTimes.size() >= flushLimit) {
                String warning = "Flush limit of " + flushLimit + " per 60 seconds reached";
                warnings.add(warning);
                send(new JsonObject().put("type", "Warning").put("description", warning).put("code", "FLUSH_LIMIT"));
                return;
            }
            flushTimes.add(now);
            if (failure == Failure.CLOSE_ON_FLUSH) {
                ws.close((short) 1011, "NET-0000");
                return;
            }
            flushed.add(buffer.toString());
            buffer.setLength(0);
            speakNext();
        }

        private void speakNext() {
            if (speaking != null || flushed.isEmpty() || closed) {
                return;
            }
            String text = flushed.poll();
            if (text.isBlank()) {
                send(new JsonObject().put("type", "Flushed").put("sequence_id", sequence++));
                speakNext();
                return;
            }
            boolean garbage = failure == Failure.GARBAGE;
            Callable<byte[]> speech = switch (format) {
                case "mulaw/8000" -> () -> SpeechFixtures.mulaw8k(text);
                case "linear16/16000" -> () -> SpeechFixtures.pcm16k(text);
                default -> () -> SpeechFixtures.pcm24k(text);
            };
            Runnable[] self = new Runnable[1];
            self[0] = PacedAudio.send(vertx, speech, bytesPerMs * chunkMs, chunkMs, ttfbMs, realTimeFactor, chunk -> {
                if (!closed) {
                    if (garbage) {
                        ws.writeTextMessage("<html>garbage</html>");
                    } else {
                        ws.writeBinaryMessage(Buffer.buffer(chunk));
                    }
                }
            }, () -> {
                if (speaking == self[0]) {
                    speaking = null;
                    spoken.add(text);
                    send(new JsonObject().put("type", "Flushed").put("sequence_id", sequence++));
                    speakNext();
                }
            }, failed -> ws.close((short) 1011, "NET-0000"));
            speaking = self[0];
        }

        private void stopSpeaking() {
            if (speaking != null) {
                speaking.run();
                speaking = null;
            }
        }

        private void send(JsonObject message) {
            if (!closed) {
                ws.writeTextMessage(message.encode());
            }
        }
    }
}
