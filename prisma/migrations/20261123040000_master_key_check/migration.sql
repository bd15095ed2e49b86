-- CreateTable
CREATE TABLE "master_key_checks" (
    "name" TEXT NOT NULL,
    "check_value" BYTEA NOT NULL,
    "kek_id" TEXT NOT NULL,
    "legacy_kek" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "master_key_checks_pkey" PRIMARY KEY ("name")
);

-- The check value is written once, when a database first meets its master key; changing or
-- removing it would let a wrong key start, so the database refuses both.
CREATE FUNCTION credgate_master_key_check_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'master_key_checks rows are immutable (% refused)', TG_OP USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER master_key_checks_immutable BEFORE UPDATE OR DELETE ON "master_key_checks"
    FOR EACH ROW EXECUTE FUNCTION credgate_master_key_check_immutable();
