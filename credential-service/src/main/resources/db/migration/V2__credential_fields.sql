-- The fields of a credential that are neither secrets nor the account SID (an azure region, an azure-openai
-- endpoint and models, a deepgram apiUrl, a playht userId, a minimax groupId): a JSON object of the fields as
-- written, answered as written. Null for credentials that have none (every credential written before).
ALTER TABLE credentials ADD COLUMN fields jsonb CHECK (fields IS NULL OR jsonb_typeof(fields) = 'object');
