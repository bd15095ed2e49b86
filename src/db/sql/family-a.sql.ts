import { statement } from './statement';

/** Family A issued credentials (src/db/repositories/issued-credential.repository.ts). */

export interface IssuedCredentialRow {
  readonly id: string;
  readonly tenantId: string;
  readonly schemaId: string;
  readonly issuerDidId: string;
  readonly holderDid: string;
  readonly holderPublicKeyHex: string;
  readonly userSignature: string;
  readonly isEncrypted: boolean;
  readonly document: Record<string, unknown>;
  readonly sealedSubject: Uint8Array;
  readonly status: string;
  readonly supersededById: string | null;
  readonly revokedAt: Date | null;
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

const COLUMNS = `id, tenant_id::text AS "tenantId", schema_id::text AS "schemaId", issuer_did_id::text AS "issuerDidId", holder_did AS "holderDid",
  holder_public_key_hex AS "holderPublicKeyHex", user_signature AS "userSignature", is_encrypted AS "isEncrypted", document,
  sealed_subject AS "sealedSubject", status, superseded_by_id AS "supersededById", revoked_at AS "revokedAt", expires_at AS "expiresAt", created_at AS "createdAt"`;
const USES = {
  issued_credentials: {
    id: 'text', tenant_id: 'uuid', schema_id: 'uuid', issuer_did_id: 'uuid', holder_did: 'text', holder_public_key_hex: 'text', user_signature: 'text',
    is_encrypted: 'bool', document: 'jsonb', sealed_subject: 'bytea', status: 'text', superseded_by_id: 'text', revoked_at: 'timestamptz',
    expires_at: 'timestamptz', created_at: 'timestamptz',
  },
} as const;

/** A new credential ('issued'); the row as stored comes back (created_at from the database). */
export const insertIssuedCredential = statement<
  [id: string, tenantId: string, schemaId: string, issuerDidId: string, holderDid: string, holderPublicKeyHex: string, userSignature: string,
   isEncrypted: boolean, document: string, sealedSubject: string, expiresAt: string],
  IssuedCredentialRow
>(
  'credgate_fa_insert_issued_credential',
  USES,
  `INSERT INTO issued_credentials (id, tenant_id, schema_id, issuer_did_id, holder_did, holder_public_key_hex, user_signature, is_encrypted, document, sealed_subject, status, expires_at)
   VALUES ($1::text, $2::uuid, $3::uuid, $4::uuid, $5::text, $6::text, $7::text, $8::bool, $9::text::jsonb, decode($10::text, 'hex'), 'issued', $11::timestamptz)
   RETURNING ${COLUMNS}`,
);

export const issuedCredentialById = statement<[id: string], IssuedCredentialRow>(
  'credgate_fa_issued_credential_by_id',
  USES,
  `SELECT ${COLUMNS} FROM issued_credentials WHERE id = $1::text`,
);

export const issuedCredentialForTenant = statement<[id: string, tenantId: string], IssuedCredentialRow>(
  'credgate_fa_issued_credential_for_tenant',
  USES,
  `SELECT ${COLUMNS} FROM issued_credentials WHERE id = $1::text AND tenant_id = $2::uuid`,
);

/** The tenant's Family A issuer DID (src/db/repositories/issuer-did-pointer.repository.ts): read by every Family A issuance. */
export const tenantIssuerDid = statement<[tenantId: string], { issuerDidId: string | null }>(
  'credgate_fa_tenant_issuer_did',
  { tenants: { id: 'uuid', issuer_did_id: 'uuid' } },
  `SELECT issuer_did_id::text AS "issuerDidId" FROM tenants WHERE id = $1::uuid`,
);
