package dev.voiceplane.runtime.audio;

import io.vertx.core.Context;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.jboss.logging.Logger;

/**
 * Silero VAD for every call of the runtime, on one thread. A call cuts its audio into the model's windows (32 ms) on
 * its own context and queues them (lock-free); the VAD thread wakes every 32 ms, takes the next window of every call
 * that has one, and runs one batched inference for all of them (a batch costs far less per call than one inference
 * each). A window below the energy gate ({@code gateDbfs}) is silence without asking the model, which skips most
 * silence. Each call's hysteresis runs on the VAD thread; only a change (speech started, stopped) is posted to the
 * call's context, where the conversation acts on it: nothing of a call's conversation is touched off its context.
 *
 * <p>Hysteresis as the energy detector's, on the model's probability: speech starts after {@code startMillis} of
 * windows at or above {@code threshold}, and stops after {@code stopMillis} of windows below {@code threshold − 0.15}
 * (Silero's own negative threshold, so that a word's tail does not flicker). A call's model state is reset at silence
 * (a gated window while no one speaks) and every 5 s, as Pipecat does, so that it never drifts on a long call.
 */
public final class SileroVad implements VoiceDetector.Factory, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SileroVad.class);
    static final long TICK_MILLIS = 32;
    private static final long RESET_NANOS = 5_000_000_000L;
    private static final float HYSTERESIS = 0.15f;
    /**
     * Windows a call may have waiting (256 ms, eight ticks): a VAD thread that falls behind (a starved machine, a long
     * pause) drops a call's oldest windows rather than catch up on stale audio in a burst that would take the CPU the
     * event loops need at that very moment. Stale windows decide nothing useful; recent ones do.
     */
    private static final int MAX_PENDING = 8;

    /**
     * The detector's settings: activation {@code threshold} (0–1), start and stop durations, the energy gate in dBFS,
     * and the largest batch (1: no batching, to compare).
     */
    public record Settings(double threshold, int startMillis, int stopMillis, double gateDbfs, int maxBatch) {
    }

    /** What the VAD thread did: windows through the model, windows gated, inferences, and time spent in them. */
    public record Stats(long inferred, long gated, long batches, long inferenceNanos, long dropped) {
    }

    private final SileroModel model;
    private final Settings settings;
    private final Set<Slot> slots = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService thread;
    private final LongAdder inferred = new LongAdder();
    private final LongAdder gated = new LongAdder();
    private final LongAdder batches = new LongAdder();
    private final LongAdder inferenceNanos = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final List<Slot> batch8k = new ArrayList<>();
    private final List<Slot> batch16k = new ArrayList<>();

    public SileroVad(SileroModel model, Settings settings) {
        this.model = model;
        this.settings = settings;
        // A platform thread of its own: inference is CPU work of a millisecond or more, never for an event loop.
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "voice-vad");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleAtFixedRate(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public VoiceDetector open(Context context, AudioFormat format, VoiceDetector.Listener listener) {
        Slot slot = new Slot(context, format.sampleRate(), listener);
        slots.add(slot);
        return slot;
    }

    /** Detectors open (one per live call). */
    public int openDetectors() {
        return slots.size();
    }

    public Stats stats() {
        return new Stats(inferred.sum(), gated.sum(), batches.sum(), inferenceNanos.sum(), dropped.sum());
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        model.close();
    }

    // ---- the VAD thread --------------------------------------------------------------------------------------

    private void tick() {
        try {
            // Rounds: each takes at most one window per call (a call's windows depend on each other through its state);
            // a call that queued more than one since the last tick (a burst) gets them in the following rounds.
            while (true) {
                batch8k.clear();
                batch16k.clear();
                for (Slot slot : slots) {
                    Window window = slot.nextForModel();
                    if (window != null) {
                        (slot.sampleRate == 8000 ? batch8k : batch16k).add(slot);
                    }
                }
                if (batch8k.isEmpty() && batch16k.isEmpty()) {
                    return;
                }
                infer(8000, batch8k);
                infer(16000, batch16k);
            }
        } catch (RuntimeException | Error e) {
            // A failure must not stop the thread (scheduleAtFixedRate would cancel it): the tick's windows are lost.
            LOG.errorf(e, "Silero VAD tick failed");
        }
    }

    private void infer(int sampleRate, List<Slot> streams) {
        int max = settings.maxBatch() <= 0 ? Integer.MAX_VALUE : settings.maxBatch();
        for (int from = 0; from < streams.size(); from += max) {
            int size = Math.min(max, streams.size() - from);
            float[][] inputs = new float[size][];
            float[][] states = new float[size][];
            for (int i = 0; i < size; i++) {
                Slot slot = streams.get(from + i);
                inputs[i] = slot.input;
                states[i] = slot.state;
            }
            long began = System.nanoTime();
            float[] probabilities = model.run(sampleRate, inputs, states, size);
            inferenceNanos.add(System.nanoTime() - began);
            batches.increment();
            inferred.add(size);
            for (int i = 0; i < size; i++) {
                streams.get(from + i).inferred(probabilities[i]);
            }
        }
    }

    /** A window of a call's audio, scaled to [-1, 1]; when its last sample was heard; whether it passed the gate. */
    private record Window(float[] samples, long heardAtNanos, boolean quiet) {
    }

    /** One call's detector: its side (cutting windows) on the call's context, the rest on the VAD thread. */
    private final class Slot implements VoiceDetector {
        final Context context;
        final int sampleRate;
        final VoiceDetector.Listener listener;
        final int window;
        final int contextSamples;
        final int windowMillis;
        final Queue<Window> pending = new ConcurrentLinkedQueue<>();
        final AtomicInteger pendingCount = new AtomicInteger();
        volatile boolean closed;

        // The call's context only.
        final short[] cutting;
        int cut;

        // The VAD thread only.
        final float[] input;
        final float[] state = new float[SileroModel.STATE];
        Window current;
        long resetAtNanos;
        boolean speaking;
        int voicedMillis;
        int quietMillis;
        long lastVoicedAtNanos;

        Slot(Context context, int sampleRate, VoiceDetector.Listener listener) {
            this.context = context;
            this.sampleRate = sampleRate;
            this.listener = listener;
            this.window = SileroModel.window(sampleRate);
            this.contextSamples = SileroModel.context(sampleRate);
            this.windowMillis = window * 1000 / sampleRate;
            this.cutting = new short[window];
            this.input = new float[contextSamples + window];
        }

        @Override
        public void audio(short[] samples, long nowNanos) {
            if (closed) {
                return;
            }
            int at = 0;
            while (at < samples.length) {
                int n = Math.min(samples.length - at, window - cut);
                System.arraycopy(samples, at, cutting, cut, n);
                cut += n;
                at += n;
                if (cut == window) {
                    cut = 0;
                    queue(new Window(scaled(cutting), nowNanos, Pcm16.dbfs(cutting) < settings.gateDbfs()));
                }
            }
        }

        private void queue(Window next) {
            pending.add(next);
            if (pendingCount.incrementAndGet() > MAX_PENDING && pending.poll() != null) {
                pendingCount.decrementAndGet();
                dropped.increment();
            }
        }

        @Override
        public void close() {
            closed = true;
            slots.remove(this);
            pending.clear();
        }

        /**
         * VAD thread: handles the call's quiet windows at once and answers the next window for the model (its input
         * filled), or null when none is waiting.
         */
        Window nextForModel() {
            if (closed) {
                slots.remove(this);
                return null;
            }
            Window next;
            while ((next = pending.poll()) != null) {
                pendingCount.decrementAndGet();
                if (!next.quiet()) {
                    break;
                }
                gated.increment();
                current = next;
                decided(0);
                if (speaking) {
                    // A pause between words keeps the model's state: reset there, the next sound is judged without the
                    // speech before it, and a soft one (a fricative) reads as silence and ends the turn early. The
                    // pause's own last samples are the next window's context.
                    System.arraycopy(next.samples(), window - contextSamples, input, 0, contextSamples);
                } else {
                    // Once speech has stopped, what comes next is judged afresh, not as more of the same speech.
                    reset(next.heardAtNanos());
                }
            }
            if (next == null) {
                return null;
            }
            if (next.heardAtNanos() - resetAtNanos >= RESET_NANOS) {
                reset(next.heardAtNanos());
            }
            float[] samples = next.samples();
            // The context (the previous window's last samples) is already at the input's start.
            System.arraycopy(samples, 0, input, contextSamples, window);
            current = next;
            return next;
        }

        private void reset(long atNanos) {
            Arrays.fill(state, 0);
            Arrays.fill(input, 0, contextSamples, 0);
            resetAtNanos = atNanos;
        }

        /** VAD thread: the model's answer for the current window. */
        void inferred(float probability) {
            // The next window's context: this one's last samples.
            System.arraycopy(input, input.length - contextSamples, input, 0, contextSamples);
            decided(probability);
        }

        /** VAD thread: the current window's probability, through the hysteresis. */
        void decided(float probability) {
            boolean voiced = probability >= (speaking ? settings.threshold() - HYSTERESIS : settings.threshold());
            if (voiced) {
                lastVoicedAtNanos = current.heardAtNanos();
                voicedMillis += windowMillis;
                quietMillis = 0;
                if (!speaking && voicedMillis >= settings.startMillis()) {
                    speaking = true;
                    post(listener::started);
                }
            } else {
                quietMillis += windowMillis;
                if (!speaking) {
                    voicedMillis = 0;
                }
                if (speaking && quietMillis >= settings.stopMillis()) {
                    speaking = false;
                    voicedMillis = 0;
                    long endedAt = lastVoicedAtNanos;
                    post(() -> listener.stopped(endedAt));
                }
            }
        }

        private void post(Runnable change) {
            context.runOnContext(ignored -> {
                if (!closed) {
                    change.run();
                }
            });
        }

        private float[] scaled(short[] samples) {
            float[] out = new float[samples.length];
            for (int i = 0; i < samples.length; i++) {
                out[i] = samples[i] / 32768f;
            }
            return out;
        }
    }
}
