-- Outbox of checkpoints to anchor on an external ledger (see src/anchor/outbox.ts, relay.ts).
-- A row is written in the transaction that stores a signed head; relays claim due rows with
-- FOR UPDATE SKIP LOCKED, so any number of instances can relay from one database.
-- status is 'pending' | 'anchored' | 'failed', written only by src/anchor/outbox.ts (like the
-- other text states of this schema, no CHECK constraint).
-- CreateTable
CREATE TABLE "anchor_outbox" (
    "log_id" TEXT NOT NULL,
    "tree_size" INTEGER NOT NULL,
    "root_hash" BYTEA NOT NULL,
    "note" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_owner" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "receipt" JSONB,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "anchored_at" TIMESTAMPTZ(3),

    CONSTRAINT "anchor_outbox_pkey" PRIMARY KEY ("log_id","tree_size")
);

-- CreateIndex
CREATE INDEX "anchor_outbox_status_next_attempt_at_idx" ON "anchor_outbox"("status", "next_attempt_at");
