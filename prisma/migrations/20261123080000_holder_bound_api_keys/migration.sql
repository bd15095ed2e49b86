-- Holder-bound API keys: a key with a holder DID acts only for that holder (see docs/security/holder.md).
-- Existing keys keep NULL, i.e. their tenant-wide behaviour.
ALTER TABLE "api_keys" ADD COLUMN "holder_did" TEXT;
