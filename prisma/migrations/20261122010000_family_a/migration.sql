-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "issuer_did_id" UUID;

-- CreateTable
CREATE TABLE "credential_schemas" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credential_schemas_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "issued_credentials" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "schema_id" UUID NOT NULL,
    "issuer_did_id" UUID NOT NULL,
    "holder_did" TEXT NOT NULL,
    "holder_public_key_hex" TEXT NOT NULL,
    "user_signature" TEXT NOT NULL,
    "is_encrypted" BOOLEAN NOT NULL,
    "document" JSONB NOT NULL,
    "sealed_subject" BYTEA NOT NULL,
    "status" TEXT NOT NULL,
    "superseded_by_id" TEXT,
    "revoked_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issued_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "credential_schemas_name_idx" ON "credential_schemas"("name");

-- CreateIndex
CREATE UNIQUE INDEX "credential_schemas_tenant_id_name_version_key" ON "credential_schemas"("tenant_id", "name", "version");

-- CreateIndex
CREATE INDEX "issued_credentials_tenant_id_idx" ON "issued_credentials"("tenant_id");

-- CreateIndex
CREATE UNIQUE INDEX "tenants_issuer_did_id_key" ON "tenants"("issuer_did_id");

-- AddForeignKey
ALTER TABLE "credential_schemas" ADD CONSTRAINT "credential_schemas_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issued_credentials" ADD CONSTRAINT "issued_credentials_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issued_credentials" ADD CONSTRAINT "issued_credentials_schema_id_fkey" FOREIGN KEY ("schema_id") REFERENCES "credential_schemas"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issued_credentials" ADD CONSTRAINT "issued_credentials_issuer_did_id_fkey" FOREIGN KEY ("issuer_did_id") REFERENCES "dids"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
