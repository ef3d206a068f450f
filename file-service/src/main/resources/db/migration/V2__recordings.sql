-- Call recordings streamed in by the voice runtime while a call goes on (docs/files.md, "Recordings"): an upload
-- row per recording and its parts in order. Completing an upload writes the WAV (header, then the parts) to the
-- FileStore as a file and removes the parts; until then nothing of it is readable as a file.
CREATE TABLE recording_uploads (
    org_id      text        NOT NULL CHECK (length(org_id) BETWEEN 1 AND 64),
    id          uuid        NOT NULL,
    name        text        NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
    channels    smallint    NOT NULL CHECK (channels IN (1, 2)),
    sample_rate integer     NOT NULL CHECK (sample_rate IN (8000, 16000, 24000)),
    parts       integer     NOT NULL DEFAULT 0 CHECK (parts >= 0),
    bytes       bigint      NOT NULL DEFAULT 0 CHECK (bytes >= 0),
    -- Set when the upload was completed: the file it became (a repeated completion answers that file).
    file_id     uuid,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (org_id, id)
);
-- The sweep of uploads abandoned mid-call (a runtime that died) and of completed ones past their grace.
CREATE INDEX recording_uploads_age ON recording_uploads (updated_at);

CREATE TABLE recording_parts (
    org_id    text    NOT NULL,
    upload_id uuid    NOT NULL,
    seq       integer NOT NULL CHECK (seq >= 0),
    data      bytea   NOT NULL,
    PRIMARY KEY (org_id, upload_id, seq),
    FOREIGN KEY (org_id, upload_id) REFERENCES recording_uploads (org_id, id) ON DELETE CASCADE
);
