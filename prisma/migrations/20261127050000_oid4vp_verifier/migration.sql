-- OID4VP 1.0 verifier (issue 21): presentation requests of a relying party (tenant), each with its
-- single-use state and nonce, the response it got and the verification result; the request's
-- secrets (the ephemeral response-encryption key, the webhook HMAC key) sealed in their own table.

-- CreateTable
CREATE TABLE "oid4vp_requests" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_id_prefix" TEXT NOT NULL,
    "response_mode" TEXT NOT NULL,
    "dcql_query" JSONB NOT NULL,
    "encryption_jwk" JSONB,
    "webhook_url" TEXT,
    "webhook_status" TEXT,
    "webhook_attempts" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "result" JSONB,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "responded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oid4vp_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oid4vp_request_secrets" (
    "request_id" UUID NOT NULL,
    "sealed" BYTEA NOT NULL,

    CONSTRAINT "oid4vp_request_secrets_pkey" PRIMARY KEY ("request_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oid4vp_requests_state_key" ON "oid4vp_requests"("state");

-- CreateIndex
CREATE UNIQUE INDEX "oid4vp_requests_nonce_key" ON "oid4vp_requests"("nonce");

-- CreateIndex
CREATE INDEX "oid4vp_requests_tenant_id_idx" ON "oid4vp_requests"("tenant_id");

-- AddForeignKey
ALTER TABLE "oid4vp_requests" ADD CONSTRAINT "oid4vp_requests_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oid4vp_request_secrets" ADD CONSTRAINT "oid4vp_request_secrets_request_id_fkey" FOREIGN KEY ("request_id") REFERENCES "oid4vp_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;
