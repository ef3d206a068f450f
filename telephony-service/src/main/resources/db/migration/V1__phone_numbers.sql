-- Phone numbers imported from a carrier. Secrets (the Twilio auth token, the customer's server URL secret, the
-- private key of the Vonage application created for the number) are only stored sealed with the service's
-- keyset (Tink AEAD, associated data "phone-number:<org_id>:<id>:<field>"), so a ciphertext copied elsewhere
-- does not open.
CREATE TABLE phone_numbers (
    org_id                   text        NOT NULL CHECK (length(org_id) BETWEEN 1 AND 64),
    id                       uuid        NOT NULL,
    -- the provider as the client wrote it (twilio, vonage or a neutral alias); carrier is the real one
    provider                 text        NOT NULL,
    carrier                  text        NOT NULL CHECK (carrier IN ('twilio', 'vonage')),
    number                   text        NOT NULL CHECK (number ~ '^\+[0-9]{8,15}$'),
    name                     text        CHECK (length(name) <= 40),
    assistant_id             text,
    server_url               text,
    server_url_secret        bytea,
    -- twilio: the account SID; vonage: the API key. With the number it resolves a webhook to one row.
    carrier_account          text        NOT NULL,
    twilio_auth_token        bytea,
    credential_id            text,
    -- what provisioning set up, so that deleting the number can release it
    carrier_number_id        text,
    previous_voice_url       text,
    previous_status_callback text,
    vonage_application_id    text,
    vonage_private_key       bytea,
    created_at               timestamptz NOT NULL,
    updated_at               timestamptz NOT NULL,
    PRIMARY KEY (org_id, id),
    CHECK ((carrier = 'twilio') = (twilio_auth_token IS NOT NULL)),
    CHECK ((carrier = 'vonage') = (credential_id IS NOT NULL))
);

-- A number is live in at most one organisation, once: a carrier webhook must resolve to exactly one row.
-- Concurrent imports of one number race on this index, and the loser is told so.
CREATE UNIQUE INDEX phone_numbers_live_number ON phone_numbers (number);

-- Lists: newest first within an organisation, the id as tie-break.
CREATE INDEX phone_numbers_list ON phone_numbers (org_id, created_at DESC, id DESC);

-- Outbound calls placed for call-service, keyed by its call id: a retried dial returns the same carrier call.
CREATE TABLE outbound_calls (
    org_id            text        NOT NULL,
    call_id           text        NOT NULL CHECK (length(call_id) BETWEEN 1 AND 100),
    phone_number_id   uuid        NOT NULL,
    carrier           text        NOT NULL,
    -- null while the carrier is being asked
    carrier_call_id   text,
    details           jsonb,
    created_at        timestamptz NOT NULL,
    PRIMARY KEY (org_id, call_id),
    FOREIGN KEY (org_id, phone_number_id) REFERENCES phone_numbers (org_id, id) ON DELETE CASCADE
);
