-- The internal address of the voice-runtime replica that holds the call's media (POST
-- /internal/call/{id}/runtime/address, given by the runtime once it attached): call-service reaches the live call
-- there, e.g. to tell it that a machine answered (docs/voice-runtime.md, "Voicemail"). The runtime is scaled
-- horizontally and a call stays on the replica that accepted its media, so the address is per call.
ALTER TABLE calls ADD COLUMN runtime_url text;
