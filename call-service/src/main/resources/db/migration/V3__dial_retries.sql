-- call-service: an outbound call whose dial found telephony-service or the carrier unavailable stays queued and is
-- dialled again later (bounded backoff) by whichever replica claims it first; telephony's dial is idempotent per call id.

-- Dial attempts made so far (the creating request's is the first).
ALTER TABLE calls ADD COLUMN dial_attempts integer NOT NULL DEFAULT 0;
-- When the next attempt is due; null when no attempt is pending. A claimed attempt pushes it forward (a lease).
ALTER TABLE calls ADD COLUMN next_dial_at timestamptz;
-- When the carrier call was placed: the unanswered timeout counts from here (a retried dial is placed late).
ALTER TABLE calls ADD COLUMN dialled_at timestamptz;

CREATE INDEX calls_dial_due ON calls (next_dial_at) WHERE next_dial_at IS NOT NULL;
