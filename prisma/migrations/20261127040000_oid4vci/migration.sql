-- OpenID for Verifiable Credential Issuance 1.0 (src/oid4vc/issuer). Every secret a wallet holds
-- (pre-authorized code, tx_code, authorization code, request_uri, access token, transaction_id)
-- is stored only as its SHA-256, so a copy of the database cannot be replayed against the issuer.

-- CreateTable
CREATE TABLE "oid4vci_offers" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "configuration_ids" TEXT[],
    "claims" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'offered',
    "pre_authorized_code_hash" CHAR(64),
    "tx_code_hash" CHAR(64),
    "tx_code_length" INTEGER,
    "tx_code_failures" INTEGER NOT NULL DEFAULT 0,
    "locked_at" TIMESTAMPTZ(3),
    "issuer_state_hash" CHAR(64),
    "deferred" BOOLEAN NOT NULL DEFAULT false,
    "ready_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oid4vci_offers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oid4vci_authorizations" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "offer_id" UUID NOT NULL,
    "request_uri_hash" CHAR(64) NOT NULL,
    "code_hash" CHAR(64),
    "client_id" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "code_challenge" TEXT NOT NULL,
    "scope" TEXT,
    "state" TEXT,
    "dpop_jkt" TEXT,
    "subject" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oid4vci_authorizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oid4vci_tokens" (
    "token_hash" CHAR(64) NOT NULL,
    "tenant_id" UUID NOT NULL,
    "offer_id" UUID NOT NULL,
    "dpop_jkt" TEXT,
    "client_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oid4vci_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "oid4vci_nonces" (
    "value_hash" CHAR(64) NOT NULL,
    "kind" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oid4vci_nonces_pkey" PRIMARY KEY ("value_hash")
);

-- CreateTable
CREATE TABLE "oid4vci_dpop_proofs" (
    "proof_hash" CHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oid4vci_dpop_proofs_pkey" PRIMARY KEY ("proof_hash")
);

-- CreateTable
CREATE TABLE "oid4vci_issuances" (
    "notification_id" TEXT NOT NULL,
    "tenant_id" UUID NOT NULL,
    "offer_id" UUID NOT NULL,
    "configuration_id" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "holder_keys" JSONB NOT NULL,
    "credential_refs" JSONB NOT NULL,
    "transaction_id_hash" CHAR(64),
    "issued_at" TIMESTAMPTZ(3),
    "event" TEXT,
    "event_description" TEXT,
    "event_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oid4vci_issuances_pkey" PRIMARY KEY ("notification_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oid4vci_offers_pre_authorized_code_hash_key" ON "oid4vci_offers"("pre_authorized_code_hash");
CREATE UNIQUE INDEX "oid4vci_offers_issuer_state_hash_key" ON "oid4vci_offers"("issuer_state_hash");
CREATE INDEX "oid4vci_offers_tenant_id_created_at_idx" ON "oid4vci_offers"("tenant_id", "created_at");
CREATE UNIQUE INDEX "oid4vci_authorizations_request_uri_hash_key" ON "oid4vci_authorizations"("request_uri_hash");
CREATE UNIQUE INDEX "oid4vci_authorizations_code_hash_key" ON "oid4vci_authorizations"("code_hash");
CREATE INDEX "oid4vci_tokens_offer_id_idx" ON "oid4vci_tokens"("offer_id");
CREATE INDEX "oid4vci_nonces_expires_at_idx" ON "oid4vci_nonces"("expires_at");
CREATE INDEX "oid4vci_dpop_proofs_expires_at_idx" ON "oid4vci_dpop_proofs"("expires_at");
CREATE UNIQUE INDEX "oid4vci_issuances_transaction_id_hash_key" ON "oid4vci_issuances"("transaction_id_hash");
CREATE INDEX "oid4vci_issuances_offer_id_idx" ON "oid4vci_issuances"("offer_id");

-- AddForeignKey
ALTER TABLE "oid4vci_offers" ADD CONSTRAINT "oid4vci_offers_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oid4vci_authorizations" ADD CONSTRAINT "oid4vci_authorizations_offer_id_fkey" FOREIGN KEY ("offer_id") REFERENCES "oid4vci_offers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oid4vci_tokens" ADD CONSTRAINT "oid4vci_tokens_offer_id_fkey" FOREIGN KEY ("offer_id") REFERENCES "oid4vci_offers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oid4vci_issuances" ADD CONSTRAINT "oid4vci_issuances_offer_id_fkey" FOREIGN KEY ("offer_id") REFERENCES "oid4vci_offers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
