package dev.voiceplane.runtime.fake;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * What {@link FakeTwilioCaller} and {@link FakeWebCaller} share: a caller on the runtime's media WebSocket that
 * talks and listens in real time, and records what a person on the line would notice.
 *
 * <p>Talking: a fixed-rate 20 ms scheduler (catching up after a late tick) sends one frame per slot, silence unless
 * an utterance queued by {@link #say} is being spoken. An {@link Utterance} records the send time of its first
 * frame ({@code started}) and of the frame holding its last sample ({@code ended}, "tEnd").
 *
 * <p>Listening, as the carrier's player does: received audio is queued and played in real time (one frame per
 * 20 ms slot); a received mark is echoed once the audio queued before it has played; a clear drops the queue (and
 * echoes the pending marks at once, where the protocol says so). Recorded: all audio received and all audio played; per utterance, the arrival of
 * the first non-silent audio after its end (voice-to-voice = that − tEnd) and the first clear after it started, while
 * unanswered (barge-in = that − its start); underruns: the queue ran dry in the middle of assistant audio and audio
 * came again before any mark (so the runtime is expected to end each utterance with a mark); the close of the socket.
 *
 * <p>What the caller hears, per utterance: the send time of its last voiced frame (a frame not {@link #silent}) and
 * the time the first voiced 20 ms frame received after its end starts to play, on an ideal carrier player (each
 * frame plays 20 ms, from its arrival when nothing is playing, else right after the frame before; a clear empties
 * it): {@link Utterance#heardMs}. Unlike the slot player above, it adds no wait for the caller's own 20 ms tick.
 * All times are {@link System#nanoTime()}.
 */
public abstract class FakeCaller implements AutoCloseable {

    static final long FRAME_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** One utterance of the caller, and what came of it. */
    public static final class Utterance {
        private final byte[] audio;
        private final CompletableFuture<Long> started = new CompletableFuture<>();
        private final CompletableFuture<Long> ended = new CompletableFuture<>();
        private final CompletableFuture<Long> firstReply = new CompletableFuture<>();
        private final CompletableFuture<Long> cleared = new CompletableFuture<>();
        private final CompletableFuture<Long> lastVoiced = new CompletableFuture<>();
        private final CompletableFuture<Long> firstHeard = new CompletableFuture<>();
        private long lastVoicedAt;

        Utterance(byte[] audio) {
            this.audio = audio;
        }

        /** Send time of its first frame. */
        public CompletableFuture<Long> started() {
            return started;
        }

        /** Send time of the frame holding its last sample ("tEnd"). */
        public CompletableFuture<Long> ended() {
            return ended;
        }

        /** Arrival of the first non-silent audio from the runtime after {@link #ended}. */
        public CompletableFuture<Long> firstReply() {
            return firstReply;
        }

        /** The first clear from the runtime after it started and before any reply to it. */
        public CompletableFuture<Long> cleared() {
            return cleared;
        }

        /** Send time of its last voiced frame (one not silent); its last frame's when none is. */
        public CompletableFuture<Long> lastVoiced() {
            return lastVoiced;
        }

        /** When the first voiced frame received after {@link #ended} starts to play (the ideal player's clock). */
        public CompletableFuture<Long> firstHeard() {
            return firstHeard;
        }

        /** What the caller hears: last voiced frame sent → first voiced reply frame played, in ms. */
        public double heardMs(Duration bound) {
            return (get(firstHeard, bound) - get(lastVoiced, bound)) / 1e6;
        }

        /** End of this speech → first reply audio, in ms; waits up to {@code bound}. */
        public double voiceToVoiceMs(Duration bound) {
            return (get(firstReply, bound) - get(ended, bound)) / 1e6;
        }

        /** Start of this (interrupting) speech → the runtime's clear, in ms; waits up to {@code bound}. */
        public double bargeInMs(Duration bound) {
            return (get(cleared, bound) - get(started, bound)) / 1e6;
        }

        private static long get(CompletableFuture<Long> future, Duration bound) {
            try {
                return future.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                throw new AssertionError("not within " + bound, e);
            }
        }
    }

    /** How the socket closed: the status code and reason (null when none), and whether the runtime closed it. */
    public record Closed(Short code, String reason, boolean byRuntime) {
    }

    private record Mark(String name) {
    }

    private final Vertx vertx;
    private final boolean ownsVertx;
    private final byte[] silenceFrame;
    private final int frameBytes;

    private WebSocket ws;
    private Context context;
    private long ticker = -1;
    private long t0;
    private long slots;
    private volatile boolean closing;

    private final ConcurrentLinkedQueue<Utterance> toSay = new ConcurrentLinkedQueue<>();
    private Utterance speaking;
    private int speakingOffset;

    private final ArrayDeque<Object> playQueue = new ArrayDeque<>();
    private int headOffset;
    private boolean playing;
    private long dryNanos = -1;
    /** When everything received so far will have played on the ideal player ({@link Utterance#firstHeard}). */
    private long playoutNanos;

    private final List<Utterance> utterances = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    private final ByteArrayOutputStream played = new ByteArrayOutputStream();
    private final List<String> receivedMarks = new CopyOnWriteArrayList<>();
    private final List<String> echoedMarks = new CopyOnWriteArrayList<>();
    private final List<Long> clears = new CopyOnWriteArrayList<>();
    private final List<Double> underrunGapsMs = new CopyOnWriteArrayList<>();
    private final List<JsonObject> messages = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Closed> closed = new CompletableFuture<>();
    private volatile long firstAudioNanos = -1;

    FakeCaller(Vertx vertx, int frameBytes, byte silence) {
        this.ownsVertx = vertx == null;
        this.vertx = vertx == null ? Vertx.vertx() : vertx;
        this.frameBytes = frameBytes;
        this.silenceFrame = new byte[frameBytes];
        Arrays.fill(silenceFrame, silence);
    }

    /** Connects to {@code url} (ws:// or wss://), then calls {@link #opened} on the socket's event loop. */
    final void open(String url, Map<String, String> headers) {
        URI uri = URI.create(url);
        boolean tls = "wss".equals(uri.getScheme());
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(uri.getHost())
                .setPort(uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80).setSsl(tls).setURI(path);
        headers.forEach(options::addHeader);
        WebSocketClient client = vertx.createWebSocketClient();
        CompletableFuture<Void> ready = new CompletableFuture<>();
        client.connect(options).onComplete(result -> {
            if (result.failed()) {
                ready.completeExceptionally(result.cause());
                return;
            }
            ws = result.result();
            context = Vertx.currentContext();
            ws.textMessageHandler(this::text);
            ws.binaryMessageHandler(buffer -> binary(buffer.getBytes()));
            ws.closeHandler(v -> {
                if (ticker >= 0) {
                    vertx.cancelTimer(ticker);
                }
                closed.complete(new Closed(ws.closeStatusCode(), ws.closeReason(), !closing));
            });
            opened();
            t0 = System.nanoTime();
            ticker = vertx.setPeriodic(20, id -> tick());
            ready.complete(null);
        });
        try {
            ready.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            if (ownsVertx) {
                vertx.close();
            }
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalStateException("could not connect to " + url + ": " + cause, cause);
        }
    }

    /** The socket is open: send the protocol's opening messages (on the socket's event loop). */
    abstract void opened();

    /** Sends one frame of caller audio. */
    abstract void sendAudio(byte[] frame);

    /** Sends the echo of a mark whose audio has played. */
    abstract void echoMark(String name);

    /** A text message from the runtime; subclasses call {@link #audio}, {@link #mark}, {@link #clear}. */
    abstract void text(String message);

    /** A binary message from the runtime. */
    abstract void binary(byte[] message);

    /** Whether a clear echoes the marks it drops (Twilio: yes; the web-call protocol: no). */
    abstract boolean echoMarksOnClear();

    /** Whether a chunk of received audio is silence (no sample louder than a whisper). */
    abstract boolean silent(byte[] audio);

    /** Queues speech; it starts in the next free 20 ms slot, after the utterances queued before it. */
    public final Utterance say(byte[] audio) {
        Utterance utterance = new Utterance(audio);
        utterances.add(utterance);
        toSay.add(utterance);
        return utterance;
    }

    /** Every utterance, in order. */
    public final List<Utterance> utterances() {
        return List.copyOf(utterances);
    }

    /** All audio received from the runtime (played or cleared). */
    public final byte[] receivedAudio() {
        synchronized (received) {
            return received.toByteArray();
        }
    }

    /** The audio actually played (what the caller heard). */
    public final byte[] playedAudio() {
        synchronized (played) {
            return played.toByteArray();
        }
    }

    /** Arrival of the first non-silent audio from the runtime, or -1. */
    public final long firstAudioNanos() {
        return firstAudioNanos;
    }

    /** Mark names received, in order. */
    public final List<String> receivedMarks() {
        return List.copyOf(receivedMarks);
    }

    /** Mark names echoed back (played, or flushed by a clear), in order. */
    public final List<String> echoedMarks() {
        return List.copyOf(echoedMarks);
    }

    /** Arrival times of the clears received. */
    public final List<Long> clears() {
        return List.copyOf(clears);
    }

    /** Gaps (ms) inside assistant audio: the queue ran dry and more audio came before a mark. */
    public final List<Double> underrunGapsMs() {
        return List.copyOf(underrunGapsMs);
    }

    /** The control messages received (JSON; for Twilio every event but {@code media}), in order. */
    public final List<JsonObject> messages() {
        return List.copyOf(messages);
    }

    /** Completes when the socket closes. */
    public final CompletableFuture<Closed> closed() {
        return closed;
    }

    /** Whether received audio is still queued for playback. */
    public final boolean playing() {
        return onContext(() -> !playQueue.isEmpty());
    }

    /** Sends a binary message as is. */
    final void writeBinary(io.vertx.core.buffer.Buffer buffer) {
        run(() -> ws.writeBinaryMessage(buffer));
    }

    /** Sends a text message as is (e.g. an extra control message). */
    public final void sendText(String text) {
        run(() -> ws.writeTextMessage(text));
    }

    /** Closes the socket without any protocol goodbye (a dropped line), and the caller's Vert.x if it owns one. */
    @Override
    public void close() {
        closing = true;
        if (ws != null && !closed.isDone()) {
            run(() -> ws.close());
            try {
                closed.get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                // Closing anyway.
            }
        }
        if (ownsVertx) {
            vertx.close();
        }
    }

    /** Sends {@code goodbye} (if any), then closes the socket normally. */
    final CompletableFuture<Closed> hangUp(java.util.function.Supplier<String> goodbye) {
        closing = true;
        run(() -> {
            if (goodbye != null) {
                ws.writeTextMessage(goodbye.get());
            }
            ws.close();
        });
        return closed;
    }

    final void run(Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }

    private <T> T onContext(java.util.function.Supplier<T> read) {
        CompletableFuture<T> result = new CompletableFuture<>();
        run(() -> result.complete(read.get()));
        try {
            return result.get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    final void record(JsonObject message) {
        messages.add(message);
    }

    /** Audio from the runtime: recorded, and queued for playback. */
    final void audio(byte[] audio) {
        long now = System.nanoTime();
        synchronized (received) {
            received.writeBytes(audio);
        }
        long startsAt = Math.max(now, playoutNanos);
        long voicedAt = -1;
        for (int offset = 0; offset < audio.length && voicedAt < 0; offset += frameBytes) {
            if (!silent(Arrays.copyOfRange(audio, offset, Math.min(audio.length, offset + frameBytes)))) {
                voicedAt = startsAt + offset / frameBytes * FRAME_NANOS;
            }
        }
        playoutNanos = startsAt + audio.length * FRAME_NANOS / frameBytes;
        if (voicedAt >= 0) {
            for (Utterance u : utterances) {
                if (u.ended.isDone() && !u.firstHeard.isDone()) {
                    u.firstHeard.complete(voicedAt);
                }
            }
        }
        if (!silent(audio)) {
            if (firstAudioNanos < 0) {
                firstAudioNanos = now;
            }
            for (Utterance u : utterances) {
                if (u.ended.isDone() && !u.firstReply.isDone()) {
                    u.firstReply.complete(now);
                }
            }
        }
        if (audio.length > 0) {
            playQueue.add(audio);
        }
    }

    final void mark(String name) {
        receivedMarks.add(name);
        playQueue.add(new Mark(name));
    }

    /** Drops the queued audio; echoes the pending marks at once when the protocol says so (Twilio does). */
    final void clear() {
        long now = System.nanoTime();
        clears.add(now);
        for (Object item : playQueue) {
            if (item instanceof Mark m && echoMarksOnClear()) {
                echo(m.name());
            }
        }
        playQueue.clear();
        headOffset = 0;
        playing = false;
        dryNanos = -1;
        playoutNanos = now;
        for (Utterance u : utterances) {
            if (u.started.isDone() && !u.firstReply.isDone() && !u.cleared.isDone()) {
                u.cleared.complete(now);
            }
        }
    }

    private void echo(String name) {
        echoedMarks.add(name);
        if (!closed.isDone()) {
            echoMark(name);
        }
    }

    private void tick() {
        if (closed.isDone()) {
            return;
        }
        long due = (System.nanoTime() - t0) / FRAME_NANOS + 1 - slots;
        for (int i = 0; i < Math.min(due, 5); i++) {
            slots++;
            sendAudio(nextFrame());
            play();
        }
    }

    private byte[] nextFrame() {
        if (speaking == null) {
            speaking = toSay.poll();
            speakingOffset = 0;
        }
        if (speaking == null) {
            return silenceFrame;
        }
        byte[] frame = silenceFrame.clone();
        int length = Math.min(frameBytes, speaking.audio.length - speakingOffset);
        System.arraycopy(speaking.audio, speakingOffset, frame, 0, Math.max(0, length));
        speakingOffset += frameBytes;
        long now = System.nanoTime();
        speaking.started.complete(now);
        if (!silent(frame)) {
            speaking.lastVoicedAt = now;
        }
        if (speakingOffset >= speaking.audio.length) {
            // Completed just before the frame is written: the send time of the last speech sample.
            speaking.lastVoiced.complete(speaking.lastVoicedAt > 0 ? speaking.lastVoicedAt : now);
            speaking.ended.complete(now);
            speaking = null;
        }
        return frame;
    }

    /** One 20 ms slot of playback: marks whose audio has played are echoed, then up to a frame of audio plays. */
    private void play() {
        echoMarksAtHead();
        int need = frameBytes;
        while (need > 0 && playQueue.peek() instanceof byte[] chunk) {
            int take = Math.min(need, chunk.length - headOffset);
            synchronized (played) {
                played.write(chunk, headOffset, take);
            }
            headOffset += take;
            need -= take;
            if (headOffset == chunk.length) {
                playQueue.poll();
                headOffset = 0;
            }
        }
        if (need < frameBytes) {
            if (dryNanos >= 0) {
                underrunGapsMs.add((System.nanoTime() - dryNanos) / 1e6);
                dryNanos = -1;
            }
            playing = true;
        }
        if (playing && need > 0 && dryNanos < 0) {
            // This slot could not be filled: a gap the caller hears, unless a mark says the utterance is over.
            dryNanos = System.nanoTime();
        }
    }

    private void echoMarksAtHead() {
        while (playQueue.peek() instanceof Mark m) {
            playQueue.poll();
            echo(m.name());
            playing = false;
            dryNanos = -1;
        }
    }
}
