package dev.voiceplane.call.delivery;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls until a condition holds, with a bound (no fixed sleeps; the bound only fails a broken run). */
final class Eventually {

    private Eventually() {
    }

    static void until(String what, BooleanSupplier condition) {
        until(what, Duration.ofSeconds(60), condition);
    }

    static void until(String what, Duration bound, BooleanSupplier condition) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + bound + ": " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what);
            }
        }
    }

    static <T> T value(String what, Supplier<T> read, java.util.function.Predicate<T> done) {
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
