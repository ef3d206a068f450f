-- The server object (server: {url, secret, headers, timeoutSeconds}) next to serverUrl/serverUrlSecret: url and secret
-- stay in server_url/server_url_secret (one value, two spellings); the object's other fields live here, and
-- server_object says the client wrote the object, so that it is answered as written.
ALTER TABLE phone_numbers
    ADD COLUMN server_headers         jsonb CHECK (jsonb_typeof(server_headers) = 'object'),
    ADD COLUMN server_timeout_seconds numeric CHECK (server_timeout_seconds BETWEEN 1 AND 300),
    ADD COLUMN server_object          boolean NOT NULL DEFAULT false;
