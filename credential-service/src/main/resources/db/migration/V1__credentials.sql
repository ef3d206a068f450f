-- Provider credentials. Secret fields live only in `secret`, sealed with the service's keyset (Tink AEAD,
-- associated data "credential:<org_id>:<id>"), so a ciphertext copied to another row does not open.
CREATE TABLE credentials (
    org_id      text        NOT NULL CHECK (length(org_id) BETWEEN 1 AND 64),
    id          uuid        NOT NULL,
    provider    text        NOT NULL,
    name        text        CHECK (length(name) <= 40),
    account_sid text,
    secret      bytea       NOT NULL,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (org_id, id)
);

-- Lists: newest first within an organisation, the id as tie-break.
CREATE INDEX credentials_list ON credentials (org_id, created_at DESC, id DESC);
