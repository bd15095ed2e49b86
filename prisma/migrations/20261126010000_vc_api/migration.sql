-- VC-API (issue 11): issuer instances (did:key, key held sealed in managed_keys), their Bitstring
-- Status Lists per purpose, and each issued credential's status entries.

-- CreateTable
CREATE TABLE "vc_issuers" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "did" TEXT NOT NULL,
    "key_type" TEXT NOT NULL,
    "cryptosuite" TEXT NOT NULL,
    "managed_key_id" UUID NOT NULL,
    "default_tenant_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vc_issuers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vc_status_lists" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "issuer_id" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "bits" BYTEA NOT NULL,
    "allocated" BYTEA NOT NULL,
    "taken" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "signed_document" JSONB,
    "signed_version" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vc_status_lists_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vc_credential_status" (
    "list_id" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "tenant_id" UUID NOT NULL,
    "credential_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vc_credential_status_pkey" PRIMARY KEY ("list_id","index")
);

-- CreateIndex
CREATE UNIQUE INDEX "vc_issuers_did_key" ON "vc_issuers"("did");

-- CreateIndex
CREATE UNIQUE INDEX "vc_issuers_default_tenant_id_key" ON "vc_issuers"("default_tenant_id");

-- CreateIndex
CREATE INDEX "vc_issuers_tenant_id_idx" ON "vc_issuers"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "vc_status_lists_issuer_id_purpose_seq_key" ON "vc_status_lists"("issuer_id", "purpose", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "vc_credential_status_tenant_id_credential_id_purpose_key" ON "vc_credential_status"("tenant_id", "credential_id", "purpose");

-- AddForeignKey
ALTER TABLE "vc_issuers" ADD CONSTRAINT "vc_issuers_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vc_issuers" ADD CONSTRAINT "vc_issuers_managed_key_id_fkey" FOREIGN KEY ("managed_key_id") REFERENCES "managed_keys"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vc_status_lists" ADD CONSTRAINT "vc_status_lists_issuer_id_fkey" FOREIGN KEY ("issuer_id") REFERENCES "vc_issuers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vc_credential_status" ADD CONSTRAINT "vc_credential_status_list_id_fkey" FOREIGN KEY ("list_id") REFERENCES "vc_status_lists"("id") ON DELETE CASCADE ON UPDATE CASCADE;
