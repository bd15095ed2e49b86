-- Signed ZKP statements of Family A certificates (POST /issuer/createZkp), kept by the issuer's
-- signature so a verifier can send the certificate exactly as the interface reference describes
-- it (certificate, zkpSignature, publicKey, userSignature) and the service finds what was signed:
-- predicate, bounds, credential, issuer and evaluation time. Deleted with their credential.
-- CreateTable
CREATE TABLE "zkp_certificates" (
    "signature" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "credential_id" TEXT NOT NULL,
    "statement" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "zkp_certificates_pkey" PRIMARY KEY ("signature")
);

-- CreateIndex
CREATE INDEX "zkp_certificates_credential_id_idx" ON "zkp_certificates"("credential_id");

-- AddForeignKey
ALTER TABLE "zkp_certificates" ADD CONSTRAINT "zkp_certificates_credential_id_fkey" FOREIGN KEY ("credential_id") REFERENCES "issued_credentials"("id") ON DELETE CASCADE ON UPDATE CASCADE;
