-- IETF Token Status Lists of the OpenID4VC issuer (issue 21) and the slots credentials hold in them.

-- CreateTable
CREATE TABLE "token_status_lists" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "bits" BYTEA NOT NULL,
    "allocated" BYTEA NOT NULL,
    "taken" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "signed_token" TEXT,
    "signed_version" INTEGER,
    "signed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "token_status_lists_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "token_status_entries" (
    "list_id" UUID NOT NULL,
    "idx" INTEGER NOT NULL,
    "tenant_id" UUID NOT NULL,
    "credential_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "token_status_entries_pkey" PRIMARY KEY ("list_id","idx")
);

-- CreateIndex
CREATE UNIQUE INDEX "token_status_lists_tenant_id_seq_key" ON "token_status_lists"("tenant_id", "seq");

-- CreateIndex
CREATE INDEX "token_status_entries_tenant_id_credential_id_idx" ON "token_status_entries"("tenant_id", "credential_id");

-- AddForeignKey
ALTER TABLE "token_status_lists" ADD CONSTRAINT "token_status_lists_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "token_status_entries" ADD CONSTRAINT "token_status_entries_list_id_fkey" FOREIGN KEY ("list_id") REFERENCES "token_status_lists"("id") ON DELETE CASCADE ON UPDATE CASCADE;
