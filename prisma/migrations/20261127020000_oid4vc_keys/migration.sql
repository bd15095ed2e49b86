-- A tenant's OpenID4VC signing keys (issue 21): one per purpose ('oid4vci-issuer' signs issued
-- credentials, 'oid4vp-request' signs request objects). The private key is a managed key (sealed in
-- managed_keys, so master-key rotation and tenant archives handle it like every other key); the
-- certificate chain (standard base64 DER, leaf first) is stored here. The unique (tenant, purpose)
-- makes concurrent first uses settle on one key: the key row and this row are written in one
-- transaction, so a loser leaves nothing behind.
-- CreateTable
CREATE TABLE "oid4vc_keys" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "managed_key_id" UUID NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "certificate_chain" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oid4vc_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oid4vc_keys_managed_key_id_key" ON "oid4vc_keys"("managed_key_id");

-- CreateIndex
CREATE UNIQUE INDEX "oid4vc_keys_tenant_id_purpose_key" ON "oid4vc_keys"("tenant_id", "purpose");

-- AddForeignKey
ALTER TABLE "oid4vc_keys" ADD CONSTRAINT "oid4vc_keys_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oid4vc_keys" ADD CONSTRAINT "oid4vc_keys_managed_key_id_fkey" FOREIGN KEY ("managed_key_id") REFERENCES "managed_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
