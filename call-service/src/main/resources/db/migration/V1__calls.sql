-- call-service: calls, what happened to them, and the server messages they produced.

-- A call row holds only what lists read and what queries filter on; the frozen configuration, transcript and
-- messages live in call_documents, so the rows a list walks stay small.
CREATE TABLE calls (
    org_id                  text        NOT NULL,
    id                      uuid        NOT NULL,
    created_at              timestamptz NOT NULL,
    updated_at              timestamptz NOT NULL,
    type                    text        NOT NULL,
    status                  text        NOT NULL,
    ended_reason            text,
    started_at              timestamptz,
    ended_at                timestamptz,
    assistant_id            text,
    squad_id                text,
    phone_number_id         text,
    customer_id             text,
    name                    text,
    phone_call_provider     text,
    phone_call_provider_id  text,
    phone_call_transport    text,
    cost                    numeric,
    -- The limit the sweeper applies once the call is in progress (the assistant's maxDurationSeconds).
    max_duration_seconds    integer     NOT NULL,
    -- The carrier's SequenceNumber of the last status event applied: older ones are recorded, not applied.
    last_carrier_sequence   bigint,
    carrier_duration_seconds bigint,
    -- Per-call order of outbox messages.
    outbox_seq              integer     NOT NULL DEFAULT 0,
    -- The runtime reported how the call ended (usage, recordings): the end-of-call report can be written.
    runtime_ended           boolean     NOT NULL DEFAULT false,
    -- The end-of-call report (cost, analysis) was written.
    finalised               boolean     NOT NULL DEFAULT false,
    -- Small wire fields: customer, metadata, webCallUrl, phoneCallProviderDetails, costBreakdown, analysis, ...
    details                 jsonb       NOT NULL,
    PRIMARY KEY (org_id, id)
);

CREATE INDEX calls_list ON calls (org_id, created_at DESC, id DESC);
CREATE INDEX calls_by_assistant ON calls (org_id, assistant_id, created_at DESC, id DESC) WHERE assistant_id IS NOT NULL;
CREATE INDEX calls_by_phone_number ON calls (org_id, phone_number_id, created_at DESC, id DESC)
    WHERE phone_number_id IS NOT NULL;
-- Carrier events and retried inbound webhooks find their call by the carrier's call id.
CREATE UNIQUE INDEX calls_by_carrier_call ON calls (org_id, phone_call_provider, phone_call_provider_id)
    WHERE phone_call_provider_id IS NOT NULL;
-- The live-call limit counts these; the sweeper walks them.
CREATE INDEX calls_live ON calls (org_id) WHERE status <> 'ended';
CREATE INDEX calls_unfinished ON calls (created_at) WHERE status <> 'ended' OR NOT finalised;

CREATE TABLE call_documents (
    org_id          text        NOT NULL,
    call_id         uuid        NOT NULL,
    -- assistant / assistantOverrides / squad / phoneNumber as frozen at creation, secrets sealed.
    configuration   jsonb       NOT NULL,
    -- The runtime's transcript messages, keyed by their sequence number (ordered when read).
    messages        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    PRIMARY KEY (org_id, call_id),
    FOREIGN KEY (org_id, call_id) REFERENCES calls (org_id, id) ON DELETE CASCADE
);

-- Every event from a carrier (through telephony-service) or the runtime, recorded once by its source's own key.
CREATE TABLE call_events (
    org_id          text        NOT NULL,
    call_id         uuid        NOT NULL,
    source          text        NOT NULL,
    source_key      text        NOT NULL,
    type            text        NOT NULL,
    payload         jsonb       NOT NULL,
    applied         boolean     NOT NULL,
    received_at     timestamptz NOT NULL,
    PRIMARY KEY (org_id, call_id, source, source_key),
    FOREIGN KEY (org_id, call_id) REFERENCES calls (org_id, id) ON DELETE CASCADE
);

-- Server messages, written in the transaction that changed the call; delivered by the worker (issue 12).
CREATE TABLE call_outbox (
    id              uuid        PRIMARY KEY,
    org_id          text        NOT NULL,
    call_id         uuid        NOT NULL,
    seq             integer     NOT NULL,
    message_type    text        NOT NULL,
    payload         jsonb       NOT NULL,
    status          text        NOT NULL DEFAULT 'pending',
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    lease_until     timestamptz,
    created_at      timestamptz NOT NULL,
    UNIQUE (org_id, call_id, seq)
);
CREATE INDEX call_outbox_due ON call_outbox (next_attempt_at) WHERE status IN ('pending', 'delivering');

-- Idempotency-Key of call creations: the same key and body within 24 hours returns the first call.
CREATE TABLE call_idempotency_keys (
    org_id          text        NOT NULL,
    key             text        NOT NULL,
    request_hash    text        NOT NULL,
    call_id         uuid        NOT NULL,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (org_id, key)
);
