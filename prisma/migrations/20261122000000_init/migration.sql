-- CreateTable
CREATE TABLE "tenants" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT,
    "secret_hash" CHAR(64) NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "managed_keys" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "algorithm" TEXT NOT NULL,
    "public_key_hex" TEXT NOT NULL,
    "encrypted_private_key" BYTEA NOT NULL,
    "kek_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "managed_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dids" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "did" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "key_algorithm" TEXT NOT NULL,
    "public_key_hex" TEXT NOT NULL,
    "managed_key_id" UUID,
    "role" TEXT NOT NULL,
    "ledger_file_id" TEXT NOT NULL,
    "topic_id" TEXT NOT NULL,
    "template_topic_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "dids_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_logs" (
    "seq" BIGSERIAL NOT NULL,
    "tenant_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_logs_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "tenants_slug_key" ON "tenants"("slug");

-- CreateIndex
CREATE INDEX "api_keys_tenant_id_idx" ON "api_keys"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "managed_keys_tenant_id_algorithm_public_key_hex_key" ON "managed_keys"("tenant_id", "algorithm", "public_key_hex");

-- CreateIndex
CREATE UNIQUE INDEX "dids_did_key" ON "dids"("did");

-- CreateIndex
CREATE UNIQUE INDEX "dids_ledger_file_id_key" ON "dids"("ledger_file_id");

-- CreateIndex
CREATE UNIQUE INDEX "dids_topic_id_key" ON "dids"("topic_id");

-- CreateIndex
CREATE UNIQUE INDEX "dids_template_topic_id_key" ON "dids"("template_topic_id");

-- CreateIndex
CREATE UNIQUE INDEX "dids_tenant_id_key_algorithm_public_key_hex_key" ON "dids"("tenant_id", "key_algorithm", "public_key_hex");

-- CreateIndex
CREATE INDEX "ledger_logs_tenant_id_idx" ON "ledger_logs"("tenant_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "managed_keys" ADD CONSTRAINT "managed_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dids" ADD CONSTRAINT "dids_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dids" ADD CONSTRAINT "dids_managed_key_id_fkey" FOREIGN KEY ("managed_key_id") REFERENCES "managed_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_logs" ADD CONSTRAINT "ledger_logs_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
