-- Assistants and squads. The configuration a client sends is validated by the service and stored whole in
-- `document` (the wire format without id/orgId/createdAt/updatedAt); the columns that queries filter or sort
-- on are real columns with indexes that match those queries.
CREATE TABLE assistants (
    org_id     text        NOT NULL CHECK (length(org_id) BETWEEN 1 AND 64),
    id         uuid        NOT NULL,
    document   jsonb       NOT NULL CHECK (jsonb_typeof(document) = 'object'),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (org_id, id)
);

-- Lists: newest first within an organisation, the id as tie-break; createdAt filters are ranges on it.
CREATE INDEX assistants_list ON assistants (org_id, created_at DESC, id DESC);
-- updatedAt filters (updatedAtGt/Ge/Lt/Le) select on this one when they are the selective part of a list.
CREATE INDEX assistants_updated ON assistants (org_id, updated_at DESC, id DESC);

CREATE TABLE squads (
    org_id     text        NOT NULL CHECK (length(org_id) BETWEEN 1 AND 64),
    id         uuid        NOT NULL,
    document   jsonb       NOT NULL CHECK (jsonb_typeof(document) = 'object'),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (org_id, id)
);

CREATE INDEX squads_list ON squads (org_id, created_at DESC, id DESC);
CREATE INDEX squads_updated ON squads (org_id, updated_at DESC, id DESC);

-- Which stored assistants a squad's members name by assistantId (inline assistants are not references).
-- It answers "which squads use this assistant?" when the assistant is deleted, and the foreign key keeps a
-- referenced assistant from disappearing underneath a squad whatever the code does.
CREATE TABLE squad_member_assistants (
    org_id       text NOT NULL,
    squad_id     uuid NOT NULL,
    assistant_id uuid NOT NULL,
    PRIMARY KEY (org_id, squad_id, assistant_id),
    FOREIGN KEY (org_id, squad_id) REFERENCES squads (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, assistant_id) REFERENCES assistants (org_id, id)
);

CREATE INDEX squad_member_assistants_by_assistant ON squad_member_assistants (org_id, assistant_id);
