-- CreateTable
CREATE TABLE "ledger_heads" (
    "log_seq" BIGINT NOT NULL,
    "tree_size" INTEGER NOT NULL,
    "root_hash" BYTEA NOT NULL,
    "note" TEXT NOT NULL,
    "signed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ledger_heads_pkey" PRIMARY KEY ("log_seq")
);

-- A log is never deleted with its tenant, and leaves and nodes never with their log: RESTRICT, not CASCADE.
ALTER TABLE "ledger_logs" DROP CONSTRAINT "ledger_logs_tenant_id_fkey";
ALTER TABLE "ledger_logs" ADD CONSTRAINT "ledger_logs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ledger_leaves" DROP CONSTRAINT "ledger_leaves_log_seq_fkey";
ALTER TABLE "ledger_leaves" ADD CONSTRAINT "ledger_leaves_log_seq_fkey" FOREIGN KEY ("log_seq") REFERENCES "ledger_logs"("seq") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ledger_nodes" DROP CONSTRAINT "ledger_nodes_log_seq_fkey";
ALTER TABLE "ledger_nodes" ADD CONSTRAINT "ledger_nodes_log_seq_fkey" FOREIGN KEY ("log_seq") REFERENCES "ledger_logs"("seq") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ledger_heads" ADD CONSTRAINT "ledger_heads_log_seq_fkey" FOREIGN KEY ("log_seq") REFERENCES "ledger_logs"("seq") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Append-only ledger. Leaves and nodes are written once and never changed or removed; a log row
-- may only grow its tree_size; a stored signed head may only advance to a larger tree. These hold
-- for every role but a superuser (who can disable triggers); the signer's consistency check
-- against the stored head covers that case.
CREATE FUNCTION credgate_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger rows are append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE FUNCTION credgate_ledger_log_grows_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (to_jsonb(NEW) - 'tree_size') IS DISTINCT FROM (to_jsonb(OLD) - 'tree_size') OR NEW.tree_size < OLD.tree_size THEN
        RAISE EXCEPTION 'ledger rows are append-only: a ledger log may only grow its tree_size'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE FUNCTION credgate_ledger_head_advances_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.log_seq IS DISTINCT FROM OLD.log_seq OR NEW.tree_size <= OLD.tree_size THEN
        RAISE EXCEPTION 'ledger rows are append-only: a signed tree head may only advance to a larger tree'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER ledger_leaves_append_only BEFORE UPDATE OR DELETE ON "ledger_leaves"
    FOR EACH ROW EXECUTE FUNCTION credgate_ledger_append_only();
CREATE TRIGGER ledger_nodes_append_only BEFORE UPDATE OR DELETE ON "ledger_nodes"
    FOR EACH ROW EXECUTE FUNCTION credgate_ledger_append_only();
CREATE TRIGGER ledger_logs_no_delete BEFORE DELETE ON "ledger_logs"
    FOR EACH ROW EXECUTE FUNCTION credgate_ledger_append_only();
CREATE TRIGGER ledger_logs_grow_only BEFORE UPDATE ON "ledger_logs"
    FOR EACH ROW EXECUTE FUNCTION credgate_ledger_log_grows_only();
CREATE TRIGGER ledger_heads_no_delete BEFORE DELETE ON "ledger_heads"
    FOR EACH ROW EXECUTE FUNCTION credgate_ledger_append_only();
CREATE TRIGGER ledger_heads_advance_only BEFORE UPDATE ON "ledger_heads"
    FOR EACH ROW EXECUTE FUNCTION credgate_ledger_head_advances_only();

-- Row triggers do not see TRUNCATE.
CREATE TRIGGER ledger_leaves_no_truncate BEFORE TRUNCATE ON "ledger_leaves"
    FOR EACH STATEMENT EXECUTE FUNCTION credgate_ledger_append_only();
CREATE TRIGGER ledger_nodes_no_truncate BEFORE TRUNCATE ON "ledger_nodes"
    FOR EACH STATEMENT EXECUTE FUNCTION credgate_ledger_append_only();
CREATE TRIGGER ledger_logs_no_truncate BEFORE TRUNCATE ON "ledger_logs"
    FOR EACH STATEMENT EXECUTE FUNCTION credgate_ledger_append_only();
CREATE TRIGGER ledger_heads_no_truncate BEFORE TRUNCATE ON "ledger_heads"
    FOR EACH STATEMENT EXECUTE FUNCTION credgate_ledger_append_only();
