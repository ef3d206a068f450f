-- The public answer's fields of each assistant (its document without secrets, as the API writes it), written with
-- the document; NULL (rows written before this column) is answered from the document.
ALTER TABLE assistants ADD COLUMN answer text;
