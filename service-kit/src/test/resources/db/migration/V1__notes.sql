CREATE TABLE notes (
    org_id     text        NOT NULL,
    id         uuid        NOT NULL,
    text       text        NOT NULL,
    priority   integer,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (org_id, id)
);
CREATE INDEX notes_list ON notes (org_id, created_at DESC, id DESC);
