package dev.voiceplane.contracts.assistant;

import dev.voiceplane.kit.validation.OneOf;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import java.math.BigDecimal;

/**
 * The caller's keypad as an input of the conversation (today's SDK's {@code keypadInputPlan}; docs/voice-runtime.md
 * "Keypad"): off unless {@code enabled}; the keys pressed are gathered until the {@code delimiters} key ({@code #},
 * {@code *}, or {@code ""} for none) or {@code timeoutSeconds} (0..10, the SDK's range; 0: the delimiter alone ends an
 * entry) after the last key, and become one caller turn.
 */
@RegisterForReflection
public record KeypadInputPlan(
        Boolean enabled,
        @DecimalMin("0") @DecimalMax("10") BigDecimal timeoutSeconds,
        @OneOf({"#", "*", ""}) String delimiters) {
}
