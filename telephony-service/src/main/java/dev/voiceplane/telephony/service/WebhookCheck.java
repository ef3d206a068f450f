package dev.voiceplane.telephony.service;

/**
 * What checking a carrier webhook found: the refusal to answer it with, or the webhook as it was verified ({@code W}:
 * {@link TwilioWebhook}, {@link VonageWebhook}). The route verifier checks once and hands the verified webhook to the
 * handler, which acts on what was checked instead of reading the number and opening its secret again.
 */
public sealed interface WebhookCheck<W> {

    /** Refused: too large, unsigned, for no number of ours, or a signature that does not match. */
    record Refused<W>(CarrierAnswer answer) implements WebhookCheck<W> {
    }

    /** Verified (or, for an inbound call to a number not imported here, nothing to verify with: see the webhook). */
    record Passed<W>(W webhook) implements WebhookCheck<W> {
    }
}
