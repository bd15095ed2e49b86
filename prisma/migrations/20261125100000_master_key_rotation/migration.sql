-- Secrets the service keeps sealed under the master key's custody KEK (envelope.ts). Today one:
-- the ledger signing seed, stored when the master key is first rotated so that the logs keep
-- their signing key (and every signed head stays verifiable) when the master key changes.
CREATE TABLE "sealed_secrets" (
    "name" TEXT NOT NULL,
    "sealed" BYTEA NOT NULL,
    "kek_id" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sealed_secrets_pkey" PRIMARY KEY ("name")
);

-- The master-key check stays immutable, except for the one UPDATE a finished rotation makes
-- (`credgate master-key rotate` sets credgate.master_key_rotation for its own transaction only).
-- DELETE is always refused.
CREATE OR REPLACE FUNCTION credgate_master_key_check_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND current_setting('credgate.master_key_rotation', true) = 'on' AND NEW.name = OLD.name THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'master_key_checks rows are immutable (% refused)', TG_OP USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
