-- Calls placed from a number given inline (POST /internal/phone-number/dial-inline), keyed by call-service's call
-- id like outbound_calls. The row keeps what this service needs to verify the call's later carrier callbacks: the
-- carrier account and number, the Twilio auth token (sealed, associated data "phone-number:<org_id>:<id>:<field>"
-- with this row's id), the vonage credential, and the Vonage application created for the call (its private key
-- sealed likewise). Nothing here is ever returned.
CREATE TABLE inline_dials (
    org_id                text        NOT NULL CHECK (length(org_id) BETWEEN 1 AND 64),
    call_id               text        NOT NULL CHECK (length(call_id) BETWEEN 1 AND 100),
    id                    uuid        NOT NULL UNIQUE,
    provider              text        NOT NULL,
    carrier               text        NOT NULL CHECK (carrier IN ('twilio', 'vonage')),
    number                text        NOT NULL CHECK (number ~ '^\+[0-9]{8,15}$'),
    -- twilio: the account SID; vonage: the API key (the api_key claim of its signed webhooks)
    carrier_account       text        NOT NULL,
    twilio_auth_token     bytea,
    credential_id         text,
    vonage_application_id text,
    vonage_private_key    bytea,
    -- null while the carrier is being asked
    carrier_call_id       text,
    details               jsonb,
    created_at            timestamptz NOT NULL,
    PRIMARY KEY (org_id, call_id),
    CHECK ((carrier = 'twilio') = (twilio_auth_token IS NOT NULL)),
    CHECK ((carrier = 'vonage') = (credential_id IS NOT NULL))
);

-- Callbacks name the call by the id in the URL we gave (Twilio) or by the carrier's call id (Vonage), with the account.
CREATE INDEX inline_dials_callback ON inline_dials (carrier, carrier_account, call_id);
CREATE UNIQUE INDEX inline_dials_carrier_call ON inline_dials (carrier, carrier_call_id);
