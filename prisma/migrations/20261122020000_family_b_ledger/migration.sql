-- AlterTable
ALTER TABLE "ledger_logs" ADD COLUMN     "tree_size" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ledger_leaves" (
    "log_seq" BIGINT NOT NULL,
    "index" INTEGER NOT NULL,
    "entry_hash" BYTEA NOT NULL,
    "leaf_hash" BYTEA NOT NULL,
    "kind" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_leaves_pkey" PRIMARY KEY ("log_seq","index")
);

-- CreateTable
CREATE TABLE "ledger_nodes" (
    "log_seq" BIGINT NOT NULL,
    "level" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "hash" BYTEA NOT NULL,

    CONSTRAINT "ledger_nodes_pkey" PRIMARY KEY ("log_seq","level","index")
);

-- CreateTable
CREATE TABLE "vc_templates" (
    "id" UUID NOT NULL,
    "template_id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "active_name" TEXT,
    "description" TEXT NOT NULL,
    "issuer_did_id" UUID NOT NULL,
    "attributes" JSONB NOT NULL,
    "expiration" JSONB NOT NULL,
    "issuance_date" TIMESTAMPTZ(3) NOT NULL,
    "expiration_date" TIMESTAMPTZ(3) NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vc_templates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credentials" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "template_id" UUID NOT NULL,
    "issuer_did_id" UUID NOT NULL,
    "holder" TEXT,
    "document" JSONB NOT NULL,
    "credential_hash" BYTEA NOT NULL,
    "status_list_id" UUID NOT NULL,
    "status_index" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "status_lists" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "issuer_did_id" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "bits" BYTEA NOT NULL,
    "next_index" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "status_lists_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ledger_leaves_log_seq_entry_hash_key" ON "ledger_leaves"("log_seq", "entry_hash");

-- CreateIndex
CREATE UNIQUE INDEX "vc_templates_template_id_key" ON "vc_templates"("template_id");

-- CreateIndex
CREATE INDEX "vc_templates_tenant_id_name_idx" ON "vc_templates"("tenant_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "vc_templates_tenant_id_active_name_key" ON "vc_templates"("tenant_id", "active_name");

-- CreateIndex
CREATE INDEX "credentials_tenant_id_idx" ON "credentials"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "credentials_status_list_id_status_index_key" ON "credentials"("status_list_id", "status_index");

-- CreateIndex
CREATE UNIQUE INDEX "status_lists_issuer_did_id_key" ON "status_lists"("issuer_did_id");

-- AddForeignKey
ALTER TABLE "ledger_leaves" ADD CONSTRAINT "ledger_leaves_log_seq_fkey" FOREIGN KEY ("log_seq") REFERENCES "ledger_logs"("seq") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_nodes" ADD CONSTRAINT "ledger_nodes_log_seq_fkey" FOREIGN KEY ("log_seq") REFERENCES "ledger_logs"("seq") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vc_templates" ADD CONSTRAINT "vc_templates_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vc_templates" ADD CONSTRAINT "vc_templates_issuer_did_id_fkey" FOREIGN KEY ("issuer_did_id") REFERENCES "dids"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "vc_templates"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_issuer_did_id_fkey" FOREIGN KEY ("issuer_did_id") REFERENCES "dids"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_status_list_id_fkey" FOREIGN KEY ("status_list_id") REFERENCES "status_lists"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_lists" ADD CONSTRAINT "status_lists_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_lists" ADD CONSTRAINT "status_lists_issuer_did_id_fkey" FOREIGN KEY ("issuer_did_id") REFERENCES "dids"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
