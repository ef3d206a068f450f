-- A Vonage API key is a credential secret: carrier_account now holds it sealed (text 'sealed:v1:<base64>', Tink AEAD
-- with associated data "phone-number:<org_id>:<id>:carrierAccount"), which cannot be searched for. A Vonage webhook
-- finds its row by the number (unique) or, for an inline dial, by the application created for the call, and then
-- compares the API key it names with the opened one. Rows written before keep the key in clear until the service
-- seals them at its next start (LegacyAccounts).
CREATE INDEX inline_dials_vonage_application ON inline_dials (vonage_application_id) WHERE carrier = 'vonage';
