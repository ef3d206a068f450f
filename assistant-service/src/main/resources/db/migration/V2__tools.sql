-- Tools (/tool): stored like assistants, the validated body whole in `document`, its server secret sealed.
CREATE TABLE tools (
    org_id     text        NOT NULL CHECK (length(org_id) BETWEEN 1 AND 64),
    id         uuid        NOT NULL,
    document   jsonb       NOT NULL CHECK (jsonb_typeof(document) = 'object'),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (org_id, id)
);

CREATE INDEX tools_list ON tools (org_id, created_at DESC, id DESC);
CREATE INDEX tools_updated ON tools (org_id, updated_at DESC, id DESC);

-- Which stored tools an assistant's model.toolIds name. It answers "which assistants use this tool?" when the tool
-- is deleted (a 409 naming them), and the foreign key keeps a named tool from disappearing whatever the code does.
CREATE TABLE assistant_tools (
    org_id       text NOT NULL,
    assistant_id uuid NOT NULL,
    tool_id      uuid NOT NULL,
    PRIMARY KEY (org_id, assistant_id, tool_id),
    FOREIGN KEY (org_id, assistant_id) REFERENCES assistants (org_id, id) ON DELETE CASCADE,
    FOREIGN KEY (org_id, tool_id) REFERENCES tools (org_id, id)
);

CREATE INDEX assistant_tools_by_tool ON assistant_tools (org_id, tool_id);
