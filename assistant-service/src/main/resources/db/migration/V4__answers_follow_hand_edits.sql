-- A stored answer is the public answer of the document it was written with. An UPDATE that changes the document
-- without writing the answer (an operator's hand edit, a script) leaves that answer stale; it is dropped then, so
-- reads answer from the document (and its rules for a document that no longer reads as its type) until the next
-- write through the API stores an answer again. The services' own writes always set both.
CREATE FUNCTION answer_follows_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.answer := NULL;
    NEW.answer_form := NULL;
    RETURN NEW;
END
$$;

CREATE TRIGGER assistants_answer_follows_document BEFORE UPDATE ON assistants FOR EACH ROW
    WHEN (NEW.document IS DISTINCT FROM OLD.document AND NEW.answer IS NOT DISTINCT FROM OLD.answer)
    EXECUTE FUNCTION answer_follows_document();
CREATE TRIGGER squads_answer_follows_document BEFORE UPDATE ON squads FOR EACH ROW
    WHEN (NEW.document IS DISTINCT FROM OLD.document AND NEW.answer IS NOT DISTINCT FROM OLD.answer)
    EXECUTE FUNCTION answer_follows_document();
CREATE TRIGGER tools_answer_follows_document BEFORE UPDATE ON tools FOR EACH ROW
    WHEN (NEW.document IS DISTINCT FROM OLD.document AND NEW.answer IS NOT DISTINCT FROM OLD.answer)
    EXECUTE FUNCTION answer_follows_document();
