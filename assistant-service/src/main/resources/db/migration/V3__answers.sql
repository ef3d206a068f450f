-- The public answer of each assistant, squad and tool, stored with its document: the fields a public read answers
-- (secrets left out, without the common fields), as the write produced them, and the form of the type they were
-- written under (a checksum of its shape: the kit's StoredJson.form). A public read copies them as they are when
-- their form is the current one; otherwise (NULL: rows written before this migration, or with secrets) it reads the
-- document, as before. docs/architecture.md, "Stored documents and their answers".
ALTER TABLE assistants ADD COLUMN answer text, ADD COLUMN answer_form bigint;
ALTER TABLE squads ADD COLUMN answer text, ADD COLUMN answer_form bigint;
ALTER TABLE tools ADD COLUMN answer text, ADD COLUMN answer_form bigint;
