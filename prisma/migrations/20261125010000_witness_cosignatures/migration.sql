-- Witness cosigning (docs/security/witness.md). What each configured witness has cosigned per log,
-- so the next request carries a consistency proof from that size, and the cosignatures themselves.
-- Neither table is trusted by readers: every cosignature is re-verified against the witness key and
-- the served checkpoint before it is reported.

-- CreateTable
CREATE TABLE "ledger_witness_state" (
    "log_seq" BIGINT NOT NULL,
    "witness" TEXT NOT NULL,
    "tree_size" INTEGER,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ledger_witness_state_pkey" PRIMARY KEY ("log_seq","witness")
);

-- CreateTable
CREATE TABLE "ledger_cosignatures" (
    "log_seq" BIGINT NOT NULL,
    "witness" TEXT NOT NULL,
    "tree_size" INTEGER NOT NULL,
    "line" TEXT NOT NULL,
    "cosigned_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ledger_cosignatures_pkey" PRIMARY KEY ("log_seq","witness","tree_size")
);

-- AddForeignKey
ALTER TABLE "ledger_witness_state" ADD CONSTRAINT "ledger_witness_state_log_seq_fkey" FOREIGN KEY ("log_seq") REFERENCES "ledger_logs"("seq") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_cosignatures" ADD CONSTRAINT "ledger_cosignatures_log_seq_fkey" FOREIGN KEY ("log_seq") REFERENCES "ledger_logs"("seq") ON DELETE RESTRICT ON UPDATE CASCADE;
