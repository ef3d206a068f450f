-- Transfers of live carrier calls to a phone number (POST /internal/phone-number/{id}/transfer and
-- transfer-inline), keyed by the carrier's call id: a redirect is not idempotent at the carrier (asking Twilio twice
-- would dial twice), so a retried request finds the row and gets the first answer. The claim is inserted first
-- (race-safe on the primary key), the carrier asked outside any transaction, then the row marked done, or dropped
-- when the carrier refused.
CREATE TABLE call_transfers (
    org_id          text        NOT NULL CHECK (length(org_id) BETWEEN 1 AND 64),
    carrier         text        NOT NULL CHECK (carrier IN ('twilio', 'vonage')),
    carrier_call_id text        NOT NULL CHECK (length(carrier_call_id) BETWEEN 1 AND 100),
    number          text        NOT NULL CHECK (number ~ '^\+[0-9]{8,15}$'),
    -- null while the carrier is being asked
    transferred_at  timestamptz,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (org_id, carrier, carrier_call_id)
);
