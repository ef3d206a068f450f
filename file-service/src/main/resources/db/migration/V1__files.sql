-- Files of an organisation. Only finished uploads have a row: bytes are written to the FileStore first, then the
-- row, so a list never shows a file whose bytes are missing.
CREATE TABLE files (
    org_id        text        NOT NULL CHECK (length(org_id) BETWEEN 1 AND 64),
    id            uuid        NOT NULL,
    name          text        NOT NULL CHECK (length(name) <= 40),
    original_name text        NOT NULL CHECK (length(original_name) <= 255),
    bytes         bigint      NOT NULL CHECK (bytes > 0),
    mimetype      text        NOT NULL,
    status        text        NOT NULL CHECK (status IN ('indexed', 'not_indexed')),
    bucket        text        NOT NULL,
    storage_key   text        NOT NULL UNIQUE,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    PRIMARY KEY (org_id, id)
);

-- Lists: newest first within an organisation, the id as tie-break.
CREATE INDEX files_list ON files (org_id, created_at DESC, id DESC);

-- The extracted text of an indexed file, apart from the row so that lists never read it.
CREATE TABLE file_texts (
    org_id text NOT NULL,
    id     uuid NOT NULL,
    text   text NOT NULL,
    PRIMARY KEY (org_id, id),
    FOREIGN KEY (org_id, id) REFERENCES files (org_id, id) ON DELETE CASCADE
);

-- The PostgreSQL FileStore: a file's bytes in fixed-size chunks, so that writing and reading stream one chunk at a
-- time (a single bytea value would be held whole in memory on both sides).
CREATE TABLE blob_chunks (
    storage_key text    NOT NULL,
    seq         integer NOT NULL CHECK (seq >= 0),
    data        bytea   NOT NULL,
    PRIMARY KEY (storage_key, seq)
);

-- Bytes that may be in the FileStore without a file row: written before an upload's row (removed with the row's
-- insert), or left by a delete. The sweep removes the bytes of every entry whose purge_after has passed, so a
-- crash between writing the bytes and the row (or after a delete) leaves nothing behind.
CREATE TABLE blob_cleanup (
    storage_key text        PRIMARY KEY,
    purge_after timestamptz NOT NULL
);
CREATE INDEX blob_cleanup_due ON blob_cleanup (purge_after);
