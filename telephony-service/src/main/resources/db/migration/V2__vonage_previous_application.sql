-- The Vonage application a number was linked to before it was imported here, so that deleting the number links
-- it back (instead of leaving it linked to nothing).
ALTER TABLE phone_numbers ADD COLUMN previous_vonage_application_id text;
