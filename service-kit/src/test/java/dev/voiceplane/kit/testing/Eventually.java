package dev.voiceplane.kit.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for what a test cannot know the moment of (a message delivered, a call ended, the greeting heard): polls a
 * condition until it holds, and fails with an {@link AssertionError} naming what was awaited once the bound has
 * passed. No fixed sleeps and no timed assertions: the bound only fails a broken run, so it is generous
 * ({@link #BOUND} unless a test gives its own). It polls every 10 ms for the first two seconds, then every 100 ms,
 * so that a quick condition is seen at once and a slow one (a read through a whole stack) is not asked for hundreds
 * of times a second. The one polling helper of every module's tests (CONTRIBUTING.md, "How tests are written",
 * says why it is not Awaitility).
 */
public final class Eventually {

    /** The bound when a test gives none. */
    public static final Duration BOUND = Duration.ofSeconds(60);

    private static final long QUICK_NANOS = Duration.ofSeconds(2).toNanos();

    private Eventually() {
    }

    /** Polls {@code condition} until it holds, at most {@link #BOUND}. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, BOUND, condition);
    }

    /** Polls {@code condition} until it holds, at most {@code bound}. */
    public static void until(String what, Duration bound, BooleanSupplier condition) {
        long start = System.nanoTime();
        long deadline = start + bound.toNanos();
        while (!condition.getAsBoolean()) {
            long now = System.nanoTime();
            if (now > deadline) {
                throw new AssertionError("not within " + bound + ": " + what);
            }
            try {
                Thread.sleep(now - start < QUICK_NANOS ? 10 : 100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }

    /** Polls {@code read} until {@code done} accepts its value, at most {@link #BOUND}, and returns that value. */
    public static <T> T value(String what, Supplier<T> read, Predicate<T> done) {
        return value(what, BOUND, read, done);
    }

    /** Polls {@code read} until {@code done} accepts its value, at most {@code bound}, and returns that value. */
    public static <T> T value(String what, Duration bound, Supplier<T> read, Predicate<T> done) {
        Object[] last = new Object[1];
        until(what, bound, () -> {
            T value = read.get();
            last[0] = value;
            return done.test(value);
        });
        @SuppressWarnings("unchecked")
        T value = (T) last[0];
        return value;
    }
}
