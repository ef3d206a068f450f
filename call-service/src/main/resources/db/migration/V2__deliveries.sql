-- Delivery of the server messages in call_outbox (issue 12, docs/webhooks.md).

-- status: pending | delivering (claimed; lease_until = next_attempt_at = when the claim expires) | delivered |
-- dead (the last attempt failed, or the receiver refused it with a non-retryable answer) | skipped (no server URL).
-- schedule_start: the attempt count when the current retry schedule began (a redelivery starts a new one).
ALTER TABLE call_outbox
    ADD COLUMN schedule_start   integer     NOT NULL DEFAULT 0,
    ADD COLUMN delivered_at     timestamptz,
    ADD COLUMN last_status_code integer,
    ADD COLUMN last_error       text;

-- One row per attempt: the delivery log a customer reads (GET /call/{id}/deliveries).
CREATE TABLE call_delivery_attempts (
    org_id        text        NOT NULL,
    message_id    uuid        NOT NULL,
    attempt       integer     NOT NULL,
    call_id       uuid        NOT NULL,
    attempted_at  timestamptz NOT NULL,
    url           text,
    status_code   integer,
    latency_ms    integer     NOT NULL,
    outcome       text        NOT NULL,
    error         text,
    PRIMARY KEY (message_id, attempt)
);
CREATE INDEX call_delivery_attempts_by_call ON call_delivery_attempts (org_id, call_id);

-- Per-organisation Standard Webhooks signing secrets, sealed with the service's keyset. The current one has no
-- expires_at; a rotated-out one signs alongside the new one until it expires.
CREATE TABLE call_signing_secrets (
    org_id      text        NOT NULL,
    id          uuid        NOT NULL,
    secret      bytea       NOT NULL,
    created_at  timestamptz NOT NULL,
    expires_at  timestamptz,
    PRIMARY KEY (org_id, id)
);
CREATE UNIQUE INDEX call_signing_secrets_current ON call_signing_secrets (org_id) WHERE expires_at IS NULL;
