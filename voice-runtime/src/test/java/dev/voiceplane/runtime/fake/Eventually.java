package dev.voiceplane.runtime.fake;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Polls until a condition holds, with a bound (no fixed sleeps; the bound only fails a broken run). */
public final class Eventually {

    private Eventually() {
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, Duration.ofSeconds(20), condition);
    }

    public static void until(String what, Duration bound, BooleanSupplier condition) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + bound + ": " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }

    /** Polls {@code read} until {@code done} accepts its value, and returns that value. */
    public static <T> T value(String what, Supplier<T> read, Predicate<T> done) {
        Object[] last = new Object[1];
        until(what, () -> {
            T value = read.get();
            last[0] = value;
            return done.test(value);
        });
        @SuppressWarnings("unchecked")
        T value = (T) last[0];
        return value;
    }
}
