package dev.voiceplane.call.api;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * {@code POST /call/webhook-secret/rotate} ({@code {}} for the defaults): how long the replaced secret keeps
 * signing (default 24 h, at most 7 days).
 */
public record WebhookSecretRotation(
        @Min(value = 0, message = "must not be less than 0")
        @Max(value = 604800, message = "must not be greater than 604800") Integer overlapSeconds) {
}
