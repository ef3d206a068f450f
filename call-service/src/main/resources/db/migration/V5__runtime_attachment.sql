-- When the voice runtime attached to the call's media (POST /internal/call/{id}/runtime/attach): a call is attached
-- once, and a call that ends without ever being attached gets its end-of-call report at once instead of waiting out
-- the report grace for a runtime that will never report.
ALTER TABLE calls ADD COLUMN runtime_attached_at timestamptz;
