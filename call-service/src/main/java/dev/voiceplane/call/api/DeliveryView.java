package dev.voiceplane.call.api;

import java.time.Instant;
import java.util.List;

/**
 * One server message of a call and what became of it (docs/webhooks.md): {@code id} is its {@code webhook-id},
 * {@code status} pending | delivering | delivered | dead | skipped, {@code attemptLog} every attempt in order.
 */
public record DeliveryView(
        String id,
        String callId,
        int seq,
        String type,
        String status,
        int attempts,
        Instant createdAt,
        Instant nextAttemptAt,
        Instant deliveredAt,
        Integer lastStatusCode,
        String lastError,
        List<Attempt> attemptLog) {

    /** One attempt: when, to which URL, the answer's status code (none when it never came), how long, why not. */
    public record Attempt(int attempt, Instant at, String url, Integer statusCode, long latencyMs, String outcome,
            String error) {
    }
}
