-- call-service: finished server messages (delivered, skipped, dead) and their attempt logs are deleted after
-- VOICE_WEBHOOK_RETENTION (docs/webhooks.md, "Storage"). The purge looks for old rows by created_at: a BRIN index is
-- enough (rows arrive in created_at order) and costs next to nothing on the hot insert/claim/record path.
CREATE INDEX call_outbox_created ON call_outbox USING brin (created_at);
