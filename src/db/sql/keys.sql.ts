import { statement } from './statement';

/** A tenant's sealed key by id: every signing request unseals one (src/kms/key-custody.ts). */
export const managedKeyById = statement<
  [id: string, tenantId: string],
  { id: string; tenantId: string; algorithm: string; publicKeyHex: string; encryptedPrivateKey: Uint8Array; kekId: string; purpose: string; createdAt: Date }
>(
  'credgate_managed_key_by_id',
  {
    managed_keys: {
      id: 'uuid', tenant_id: 'uuid', algorithm: 'text', public_key_hex: 'text', encrypted_private_key: 'bytea', kek_id: 'text', purpose: 'text', created_at: 'timestamptz',
    },
  },
  `SELECT id::text AS id, tenant_id::text AS "tenantId", algorithm, public_key_hex AS "publicKeyHex", encrypted_private_key AS "encryptedPrivateKey",
     kek_id AS "kekId", purpose, created_at AS "createdAt"
   FROM managed_keys WHERE id = $1::uuid AND tenant_id = $2::uuid`,
);
