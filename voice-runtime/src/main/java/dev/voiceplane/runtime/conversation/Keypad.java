package dev.voiceplane.runtime.conversation;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Vertx;
import java.util.function.Consumer;

/**
 * The caller's keypad as an input of the conversation (today's SDK's {@code keypadInputPlan}; docs/voice-runtime.md
 * "Keypad"). The keys pressed are gathered into one entry, which ends at the delimiter key (not part of the entry), or
 * {@code timeoutSeconds} after the last key (a call timer, restarted by each key), or at {@value #MAX_KEYS} keys; the
 * entry is handed on as the text {@value #PREFIX} and its keys. With {@code timeoutSeconds} 0 only the delimiter ends
 * an entry, or, without a delimiter, each key is an entry of its own. A delimiter pressed with nothing before it ends
 * nothing. Runs on the call's context.
 */
public final class Keypad {

    /** How the hosted platform writes a keypad entry into the conversation; prompts written for it expect this. */
    static final String PREFIX = "User's Keypad Entry: ";
    /** An entry ends at this many keys however it was configured (a stream could press keys without end). */
    static final int MAX_KEYS = 64;

    /**
     * {@code keypadInputPlan} as the call runs it: off unless {@code enabled}; {@code timeoutSeconds}
     * {@value #DEFAULT_TIMEOUT} and the delimiter {@code #} where the plan leaves them out (the SDK documents the
     * timeout's default and none for the delimiter); {@code ""} for no delimiter.
     */
    public record Plan(boolean enabled, double timeoutSeconds, String delimiter) {

        static final double DEFAULT_TIMEOUT = 2;
        static final String DEFAULT_DELIMITER = "#";
        static final Plan OFF = new Plan(false, DEFAULT_TIMEOUT, DEFAULT_DELIMITER);

        static Plan read(JsonNode assistant) {
            JsonNode plan = assistant.path("keypadInputPlan");
            if (!plan.isObject()) {
                return OFF;
            }
            return new Plan(plan.path("enabled").asBoolean(false),
                    plan.path("timeoutSeconds").isNumber() ? plan.path("timeoutSeconds").asDouble() : DEFAULT_TIMEOUT,
                    plan.path("delimiters").isTextual() ? plan.path("delimiters").asText() : DEFAULT_DELIMITER);
        }
    }

    private final Vertx vertx;
    private final Consumer<String> entered;
    private final StringBuilder keys = new StringBuilder();
    private long timer = -1;

    /** {@code entered} gets each entry's text. */
    Keypad(Vertx vertx, Consumer<String> entered) {
        this.vertx = vertx;
        this.entered = entered;
    }

    /** Whether {@code key} is a key of a phone's keypad: 0-9, *, # or A-D (as carriers report them). */
    static boolean isKey(String key) {
        return key != null && key.length() == 1 && "0123456789*#ABCDabcd".indexOf(key.charAt(0)) >= 0;
    }

    /** The caller pressed {@code key} (checked with {@link #isKey}) under {@code plan} (an enabled one). */
    void press(String key, Plan plan) {
        cancelTimer();
        if (!plan.delimiter().isEmpty() && plan.delimiter().equals(key)) {
            complete();
            return;
        }
        keys.append(key.toUpperCase(java.util.Locale.ROOT));
        if (keys.length() >= MAX_KEYS || plan.timeoutSeconds() <= 0 && plan.delimiter().isEmpty()) {
            complete();
        } else if (plan.timeoutSeconds() > 0) {
            timer = vertx.setTimer(Math.max(1, Math.round(plan.timeoutSeconds() * 1000)), id -> {
                timer = -1;
                complete();
            });
        }
    }

    /** Whether no key is waiting to become an entry. */
    boolean idle() {
        return keys.isEmpty();
    }

    private void complete() {
        cancelTimer();
        if (keys.isEmpty()) {
            return;
        }
        String entry = PREFIX + keys;
        keys.setLength(0);
        entered.accept(entry);
    }

    /** The call ended: the keys not yet an entry are dropped. */
    void close() {
        cancelTimer();
        keys.setLength(0);
    }

    private void cancelTimer() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            timer = -1;
        }
    }
}
