import { statement } from './statement';

/** VC-API issuance: a Bitstring Status List slot per purpose (src/db/repositories/vc-status.repository.ts). */

/** The newest list of an issuer and purpose, locked for the slot draw. */
export const lockCurrentVcList = statement<[issuerId: string, purpose: string], { id: string; seq: number; taken: number; allocated: Uint8Array }>(
  'credgate_vc_lock_current_list',
  { vc_status_lists: { id: 'uuid', seq: 'int4', taken: 'int4', allocated: 'bytea', issuer_id: 'uuid', purpose: 'text' } },
  `SELECT id::text AS id, seq, taken, allocated FROM vc_status_lists WHERE issuer_id = $1::uuid AND purpose = $2::text ORDER BY seq DESC LIMIT 1 FOR UPDATE`,
);

/**
 * An empty list (bits and allocation map of $6 zero bytes, made by the database rather than sent).
 * Idempotent on (issuer, purpose, seq): two instances creating the same list both succeed.
 */
export const insertVcList = statement<[id: string, tenantId: string, issuerId: string, purpose: string, seq: number, bytes: number], { id: string }>(
  'credgate_vc_insert_list',
  { vc_status_lists: { id: 'uuid', tenant_id: 'uuid', issuer_id: 'uuid', purpose: 'text', seq: 'int4', bits: 'bytea', allocated: 'bytea' } },
  `INSERT INTO vc_status_lists (id, tenant_id, issuer_id, purpose, seq, bits, allocated)
   VALUES ($1::uuid, $2::uuid, $3::uuid, $4::text, $5::int, decode(repeat('00', $6::int), 'hex'), decode(repeat('00', $6::int), 'hex'))
   ON CONFLICT DO NOTHING RETURNING id::text AS id`,
);

/**
 * Takes one slot in one statement: the allocation bit set in the database (`set_bit` numbers bits
 * from the least significant of each byte, so $2 is the W3C index converted; only the bit travels,
 * not the 16 KiB map) and the credential's entry inserted (its unique (tenant, credential, purpose)
 * refuses a credential id issued twice).
 */
export const takeVcSlot = statement<[listId: string, pgBit: number, index: number, tenantId: string, credentialId: string, purpose: string], { index: number }>(
  'credgate_vc_take_slot',
  {
    vc_status_lists: { id: 'uuid', allocated: 'bytea', taken: 'int4', updated_at: 'timestamptz' },
    vc_credential_status: { list_id: 'uuid', index: 'int4', tenant_id: 'uuid', credential_id: 'text', purpose: 'text' },
  },
  `WITH vc_list_rows AS (UPDATE vc_status_lists SET allocated = set_bit(allocated, $2::bigint, 1), taken = taken + 1, updated_at = now() WHERE id = $1::uuid)
   INSERT INTO vc_credential_status (list_id, index, tenant_id, credential_id, purpose) VALUES ($1::uuid, $3::int, $4::uuid, $5::text, $6::text)
   RETURNING index`,
);
