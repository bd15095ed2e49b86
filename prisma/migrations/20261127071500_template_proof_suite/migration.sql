-- The proof suite a Family B template's credentials are signed with (issue 18): NULL is the
-- Family B default (EcdsaSecp256k1Signature2019 with salted digests), 'bbs-2023' is W3C Data
-- Integrity BBS (unlinkable selective disclosure). Existing templates keep NULL, so their
-- credentials and their anchored template hashes do not change.

-- AlterTable
ALTER TABLE "vc_templates" ADD COLUMN "proof_suite" TEXT;
ALTER TABLE "vc_templates" ADD CONSTRAINT "vc_templates_proof_suite_check" CHECK ("proof_suite" IS NULL OR "proof_suite" IN ('bbs-2023'));
