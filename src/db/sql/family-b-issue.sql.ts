import { LEDGER_USES, type LedgerWriteParams, ledgerWriteCtes } from './ledger.sql';
import { statement } from './statement';

/**
 * Family B issuance: the statements of one sequencer tick (src/db/repositories/credential.repository.ts).
 * Slots are drawn and marked by the database functions of migration 20261127120000_status_slot_functions,
 * so no allocation map crosses the wire: a tick sends random probes and receives slot numbers.
 */

/** Random probes per wanted slot (see credgate_status_slots_pick): all miss only when the list is nearly full. */
export const PROBES_PER_SLOT = 8;

/**
 * The status lists of a tick, locked in one order (by id) in the CTE, then for each its free slots:
 * `$2[first:last]` are that list's probes (PROBES_PER_SLOT per credential wanted). Fewer slots than
 * wanted when the map is full; `next_index` (slots handed out) bounds them too.
 */
export const lockAndPickSlots = statement<[ids: string[], probes: number[], firsts: number[], lasts: number[]], { id: string; next_index: number; slots: number[] }>(
  'credgate_fb_lock_and_pick_slots',
  { status_lists: { id: 'uuid', next_index: 'int4', allocated: 'bytea' } },
  `WITH locked AS (SELECT id, next_index, allocated FROM status_lists WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE)
  SELECT l.id::text AS id, l.next_index, credgate_status_slots_pick(l.allocated, ($2::int[])[w.first : w.last], ${PROBES_PER_SLOT}) AS slots
  FROM locked l JOIN unnest($1::uuid[], $3::int[], $4::int[]) AS w(id, first, last) ON l.id = w.id`,
);

/** A row of `lockListsAndLogs`: a list with its slots, or a log with its size (the other half null). */
export interface ListOrLogRow {
  readonly id: string | null;
  readonly next_index: number | null;
  readonly slots: number[] | null;
  readonly seq: string | null;
  readonly tree_size: number | null;
}

/**
 * `lockAndPickSlots`, then the ledger logs of the tick's issuers locked (by seq) in the same round
 * trip: one statement fewer per tick. The order is the one every writer of both keeps (status
 * lists, then logs: the revocation batch and the two statements this replaces): UNION ALL runs its
 * branches in turn, so every list is locked before the first log. A tree_size read under FOR UPDATE
 * is the committed one of whoever held the row before (READ COMMITTED re-reads a row it waited
 * for), which is all a tick needs of a log whose frontier it remembers (src/ledger/frontier-cache.ts);
 * a log it must read is read by a later statement, whose snapshot follows the lock.
 */
export const lockListsAndLogs = statement<[ids: string[], probes: number[], firsts: number[], lasts: number[], logSeqs: string[]], ListOrLogRow>(
  'credgate_fb_lock_lists_and_logs',
  { status_lists: { id: 'uuid', next_index: 'int4', allocated: 'bytea' }, ledger_logs: { seq: 'int8', tree_size: 'int4' } },
  `WITH locked AS (SELECT id, next_index, allocated FROM status_lists WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE),
  locked_logs AS (SELECT seq, tree_size FROM ledger_logs WHERE seq = ANY($5::bigint[]) ORDER BY seq FOR UPDATE)
  SELECT l.id::text AS id, l.next_index, credgate_status_slots_pick(l.allocated, ($2::int[])[w.first : w.last], ${PROBES_PER_SLOT}) AS slots, NULL::text AS seq, NULL::int AS tree_size
  FROM locked l JOIN unnest($1::uuid[], $3::int[], $4::int[]) AS w(id, first, last) ON l.id = w.id
  UNION ALL
  SELECT NULL::text, NULL::int, NULL::int[], g.seq::text, g.tree_size FROM locked_logs g`,
);

type CredentialParams = [
  ids: string[], tenantIds: string[], templateIds: string[], issuerDidIds: string[], holders: (string | null)[],
  documents: string[], credentialHashes: string[], statusListIds: string[], statusIndices: number[], expiresAt: string[],
];
const CREDENTIAL_PARAMS = 10;

/**
 * Everything a tick writes, in one statement: the credentials of every lane (one multi-row insert),
 * each list's slots marked taken and its count of handed-out slots (both derived from the inserted
 * rows' list and index), and the ledger's leaves, nodes, sizes, signed heads and outbox rows. One
 * round trip whatever the number of issuers in the tick; a failure of any part (a duplicate
 * credential id) aborts the whole statement, and the sequencer finds the guilty member.
 */
export const writeIssueTick = statement<[...CredentialParams, ...LedgerWriteParams], { ok: number }>(
  'credgate_fb_write_issue_tick',
  {
    credentials: {
      id: 'text', tenant_id: 'uuid', template_id: 'uuid', issuer_did_id: 'uuid', holder: 'text', document: 'jsonb',
      credential_hash: 'bytea', status_list_id: 'uuid', status_index: 'int4', status: 'text', expires_at: 'timestamptz',
    },
    // updated_at is Prisma's @updatedAt (set by the client, not the database), so it is set here.
    status_lists: { id: 'uuid', next_index: 'int4', allocated: 'bytea', updated_at: 'timestamptz' },
    ...LEDGER_USES,
  },
  `WITH
  credential_rows AS (INSERT INTO credentials (id, tenant_id, template_id, issuer_did_id, holder, document, credential_hash, status_list_id, status_index, status, expires_at)
    SELECT c.id, c.tenant_id, c.template_id, c.issuer_did_id, c.holder, c.document::jsonb, decode(c.credential_hash, 'hex'), c.status_list_id, c.status_index, 'issued', c.expires_at
    FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::uuid[], $9::int[], $10::timestamptz[])
      AS c(id, tenant_id, template_id, issuer_did_id, holder, document, credential_hash, status_list_id, status_index, expires_at)),
  status_list_rows AS (UPDATE status_lists s SET next_index = s.next_index + m.n, allocated = credgate_status_slots_mark(s.allocated, m.slots), updated_at = now()
    FROM (SELECT list_id, count(*)::int AS n, array_agg(slot) AS slots FROM unnest($8::uuid[], $9::int[]) AS t(list_id, slot) GROUP BY list_id) m
    WHERE s.id = m.list_id),
  ${ledgerWriteCtes(CREDENTIAL_PARAMS + 1)}
  SELECT 1 AS ok`,
);
