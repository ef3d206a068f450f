package dev.voiceplane.runtime.provider.deepgram;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceplane.runtime.provider.ProviderClients;
import dev.voiceplane.runtime.provider.ProviderError;
import dev.voiceplane.runtime.provider.ProviderSocket;
import dev.voiceplane.runtime.provider.TextToSpeech;
import dev.voiceplane.runtime.provider.VoicePiece;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * One call's Deepgram Aura voice: a WebSocket to {@code /v1/speak} ({@code Authorization: Token}), opened at the first
 * piece and kept for the call. Aura has one text buffer per socket and its audio frames name no request, so pieces are
 * spoken one after the other: a piece is sent as {@code {"type":"Speak","text"}} and {@code {"type":"Flush"}} once the
 * one before it is {@code Flushed}; the binary frames in between are its audio. The next piece's synthesis starts while
 * the previous one plays, which hides it. A cancelled piece still queued is dropped; a cancelled piece being spoken is
 * stopped with {@code {"type":"Clear"}}, and what arrives until {@code Cleared} is dropped. {@code Metadata} is
 * ignored, a {@code Warning} logged, a message that is not JSON or a socket that closes fails every piece in flight (a
 * socket that closes with nothing in flight is opened again for the next piece); {@code {"type":"Close"}} ends it.
 *
 * <p>Deepgram takes at most {@value #FLUSH_LIMIT} {@code Flush} per minute and socket (it warns and ignores the rest,
 * and the piece would never be spoken): once half of them are used within the minute, the pieces waiting are sent
 * together behind one {@code Flush}, their audio going to the first of them and the others done with it; at the limit,
 * the next piece waits until a {@code Flush} leaves the minute. Texts longer than {@value #MAX_SPEAK_CHARACTERS}
 * characters (the input limit Deepgram documents for Aura's REST API; the socket's buffer joins {@code Speak}
 * messages as sent) go in several {@code Speak} messages before their {@code Flush}.
 */
final class DeepgramAura implements TextToSpeech {

    private static final Logger LOG = Logger.getLogger(DeepgramAura.class);
    static final int FLUSH_LIMIT = 20;
    static final long FLUSH_WINDOW_MILLIS = 60_000;
    static final int MAX_SPEAK_CHARACTERS = 2000;
    private static final String FLUSH = "{\"type\":\"Flush\"}";
    private static final String CLEAR = "{\"type\":\"Clear\"}";
    private static final String CLOSE = "{\"type\":\"Close\"}";
    private static final int MAX_PENDING_FRAMES = 64;

    private final ProviderClients clients;
    private final String url;
    private final String apiKey;
    private final String provider;
    private Connection connection;
    private boolean closed;

    DeepgramAura(ProviderClients clients, String url, String apiKey, String provider) {
        this.clients = clients;
        this.url = url;
        this.apiKey = apiKey;
        this.provider = provider;
    }

    @Override
    public Runnable speak(String text, Listener listener) {
        if (closed) {
            listener.failed(ProviderError.unavailable(provider, "the voice was closed"));
            return () -> { };
        }
        if (connection == null) {
            Context current = Vertx.currentContext();
            connection = new Connection(current != null ? current : clients.vertx().getOrCreateContext());
            connection.open();
        }
        Connection current = connection;
        Piece piece = new Piece(text, new VoicePiece(clients.vertx(), provider, listener,
                clients.deadlines().firstAudioMillis(), clients.timeoutMillis(), current::timedOut));
        current.queue(piece);
        return () -> current.cancel(piece);
    }

    @Override
    public void close() {
        closed = true;
        if (connection != null) {
            connection.end();
            connection = null;
        }
    }

    private record Piece(String text, VoicePiece voice) {
    }

    /** Splits {@code text} into parts of at most {@value #MAX_SPEAK_CHARACTERS} characters, at a space if any. */
    static List<String> parts(String text) {
        List<String> parts = new ArrayList<>();
        int from = 0;
        while (text.length() - from > MAX_SPEAK_CHARACTERS) {
            int cut = text.lastIndexOf(' ', from + MAX_SPEAK_CHARACTERS);
            if (cut <= from) {
                cut = from + MAX_SPEAK_CHARACTERS;
            }
            parts.add(text.substring(from, cut));
            from = cut;
        }
        parts.add(text.substring(from));
        return parts;
    }

    /** The socket, the pieces waiting their turn, and those Deepgram is speaking. */
    private final class Connection extends ProviderSocket {
        private final ArrayDeque<Piece> waiting = new ArrayDeque<>();
        private final ArrayDeque<Long> flushes = new ArrayDeque<>();
        /** Sent behind one Flush, not yet Flushed; the first hears the audio. */
        private List<Piece> speaking;
        private boolean clearing;
        private long budgetTimer = -1;

        Connection(Context context) {
            super(context, provider, MAX_PENDING_FRAMES);
        }

        void open() {
            connect(clients.webSockets(), new WebSocketConnectOptions().setAbsoluteURI(url)
                    .addHeader("Authorization", "Token " + apiKey), clients.deadlines().firstAudioMillis());
        }

        void queue(Piece piece) {
            waiting.add(piece);
            next();
        }

        void cancel(Piece piece) {
            if (!piece.voice().cancel()) {
                return;
            }
            if (speaking != null && speaking.contains(piece)) {
                if (speaking.get(0) == piece || speaking.stream().allMatch(sent -> sent.voice().over())) {
                    clear();
                }
            } else {
                waiting.remove(piece);
            }
        }

        void timedOut(ProviderError error) {
            fail(error);
        }

        /** Stops what Deepgram is speaking; pieces of it still wanted are sent again, first, once it is Cleared. */
        private void clear() {
            for (int i = speaking.size() - 1; i >= 0; i--) {
                if (!speaking.get(i).voice().over()) {
                    waiting.addFirst(speaking.get(i));
                }
            }
            speaking = null;
            clearing = true;
            sendText(CLEAR);
        }

        /** Sends the next piece (or, with the Flush budget half spent, every piece waiting) when Deepgram is free. */
        private void next() {
            if (!isOpen() || speaking != null || clearing) {
                return;
            }
            while (!waiting.isEmpty() && waiting.peek().voice().over()) {
                waiting.poll();
            }
            if (waiting.isEmpty()) {
                return;
            }
            long now = System.nanoTime();
            while (!flushes.isEmpty() && now - flushes.peek() >= FLUSH_WINDOW_MILLIS * 1_000_000) {
                flushes.poll();
            }
            if (flushes.size() >= FLUSH_LIMIT) {
                waitForBudget(now);
                return;
            }
            List<Piece> batch = new ArrayList<>();
            batch.add(waiting.poll());
            if (flushes.size() >= FLUSH_LIMIT / 2) {
                for (Piece piece : waiting) {
                    if (!piece.voice().over()) {
                        batch.add(piece);
                    }
                }
                waiting.clear();
            }
            StringBuilder text = new StringBuilder();
            for (Piece piece : batch) {
                if (!text.isEmpty()) {
                    text.append(' ');
                }
                text.append(piece.text());
            }
            for (String part : parts(text.toString())) {
                sendText(clients.json().createObjectNode().put("type", "Speak").put("text", part).toString());
            }
            sendText(FLUSH);
            flushes.add(now);
            speaking = batch;
            batch.get(0).voice().start();
        }

        private void waitForBudget(long now) {
            if (budgetTimer >= 0) {
                return;
            }
            long wait = FLUSH_WINDOW_MILLIS - (now - flushes.peek()) / 1_000_000;
            budgetTimer = context().owner().setTimer(Math.max(1, wait), id -> {
                budgetTimer = -1;
                next();
            });
        }

        @Override
        protected void opened() {
            next();
        }

        @Override
        protected void binary(Buffer frame) {
            if (!clearing && speaking != null) {
                speaking.get(0).voice().audio(frame.getBytes());
            }
        }

        @Override
        protected void text(String text) {
            JsonNode message;
            try {
                message = clients.json().readTree(text);
            } catch (Exception e) {
                fail(ProviderError.protocol(provider(), "sent a message that is not JSON"));
                return;
            }
            switch (message.path("type").asText("")) {
                case "Flushed" -> {
                    if (clearing || speaking == null) {
                        return; // the end of what was cleared
                    }
                    List<Piece> spoken = speaking;
                    speaking = null;
                    for (Piece piece : spoken) {
                        piece.voice().done();
                    }
                    next();
                }
                case "Cleared" -> {
                    clearing = false;
                    next();
                }
                case "Warning" -> LOG.warnf("deepgram voice warning %s: %s", message.path("code").asText(""),
                        message.path("description").asText(""));
                case "Metadata" -> {
                }
                default -> LOG.debugf("deepgram voice message ignored: %s", message.path("type").asText());
            }
        }

        /** Deepgram's close codes: 1008 (DATA), 1003 and 1009 (BIG) are protocol errors, 1011 (NET) unavailable. */
        @Override
        protected ProviderError closedBy(int code, String reason) {
            String detail = "closed the stream (" + code + (reason == null || reason.isBlank() ? "" : " " + reason) + ")";
            return switch (code) {
                case 1003, 1008, 1009 -> ProviderError.protocol(provider(), detail);
                case 1011 -> ProviderError.unavailable(provider(), detail);
                default -> super.closedBy(code, reason);
            };
        }

        @Override
        protected String goodbye() {
            return CLOSE;
        }

        /** The call no longer needs the socket: pieces still in flight hear nothing more. */
        void end() {
            for (Piece piece : everyPiece()) {
                piece.voice().cancel();
            }
            cancel(budgetTimer);
            close();
        }

        private List<Piece> everyPiece() {
            List<Piece> all = new ArrayList<>();
            if (speaking != null) {
                all.addAll(speaking);
            }
            all.addAll(waiting);
            speaking = null;
            waiting.clear();
            return all;
        }

        @Override
        protected void failed(ProviderError error) {
            if (connection == this) {
                connection = null;
            }
            cancel(budgetTimer);
            budgetTimer = -1;
            List<Piece> inFlight = everyPiece();
            if (inFlight.stream().allMatch(piece -> piece.voice().over())) {
                LOG.debugf("deepgram voice socket ended while idle: %s", error);
            }
            for (Piece piece : inFlight) {
                piece.voice().fail(error);
            }
        }
    }
}
