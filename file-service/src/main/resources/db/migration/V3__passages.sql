-- The knowledge-base search (docs/files.md, "Knowledge-base search"): each indexed file's extracted text cut into
-- passages of a few sentences, each with its full-text vector (PostgreSQL's english configuration: stemmed, stop
-- words dropped), searched through a GIN index. Written with the file's row and text, deleted with the file.
CREATE TABLE file_passages (
    org_id  text     NOT NULL,
    file_id uuid     NOT NULL,
    seq     integer  NOT NULL CHECK (seq >= 0),
    text    text     NOT NULL,
    tsv     tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
    PRIMARY KEY (org_id, file_id, seq),
    FOREIGN KEY (org_id, file_id) REFERENCES files (org_id, id) ON DELETE CASCADE
);
CREATE INDEX file_passages_search ON file_passages USING GIN (tsv);

-- Whether a text has been cut into passages. Texts stored before this migration have not (false); PassageBackfill
-- cuts them at the service's start, with the same code as an upload, and sets it. Texts stored from now on are cut
-- in the transaction that stores them, so the column's default becomes true.
ALTER TABLE file_texts ADD COLUMN passages_cut boolean NOT NULL DEFAULT false;
ALTER TABLE file_texts ALTER COLUMN passages_cut SET DEFAULT true;
CREATE INDEX file_texts_uncut ON file_texts (org_id, id) WHERE NOT passages_cut;
