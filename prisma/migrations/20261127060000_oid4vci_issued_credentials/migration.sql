-- Each credential the OpenID4VCI issuer delivered, addressable by its own record id (the id its
-- Token Status List slots are held under), so an issuer can list an offer's credentials and revoke
-- one of them through the existing revocation routes (Family B DELETE /credentials/{id}).

-- CreateTable
CREATE TABLE "oid4vci_issued_credentials" (
    "id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "offer_id" UUID NOT NULL,
    "notification_id" TEXT NOT NULL,
    "configuration_id" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "issued_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "oid4vci_issued_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "oid4vci_issued_credentials_offer_id_idx" ON "oid4vci_issued_credentials"("offer_id");

-- AddForeignKey
ALTER TABLE "oid4vci_issued_credentials" ADD CONSTRAINT "oid4vci_issued_credentials_offer_id_fkey" FOREIGN KEY ("offer_id") REFERENCES "oid4vci_offers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oid4vci_issued_credentials" ADD CONSTRAINT "oid4vci_issued_credentials_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "oid4vci_issuances"("notification_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Credentials delivered before this migration: one row per reference that names a record id,
-- revoked when their offer was (offer revocation flipped their status already).
INSERT INTO "oid4vci_issued_credentials" ("id", "tenant_id", "offer_id", "notification_id", "configuration_id", "format", "issued_at", "revoked_at")
SELECT r.value->>'credentialId', i."tenant_id", i."offer_id", i."notification_id", i."configuration_id", i."format", i."issued_at", o."revoked_at"
FROM "oid4vci_issuances" i
JOIN "oid4vci_offers" o ON o."id" = i."offer_id"
CROSS JOIN LATERAL jsonb_array_elements(i."credential_refs") AS r(value)
WHERE i."issued_at" IS NOT NULL AND jsonb_typeof(r.value->'credentialId') = 'string'
ON CONFLICT DO NOTHING;
