import { LEDGER_USES, LEDGER_WRITE_PARAMS, type LedgerWriteParams, ledgerWriteCtes } from './ledger.sql';
import { statement } from './statement';

/** Family B issuance: the statements of one sequencer tick (src/db/repositories/credential.repository.ts). */

/** The status lists of a tick, locked in one order (by id), with what slot drawing needs. */
export const lockStatusLists = statement<[ids: string[]], { id: string; next_index: number; allocated: Uint8Array }>(
  'credgate_fb_lock_status_lists',
  { status_lists: { id: 'uuid', next_index: 'int4', allocated: 'bytea' } },
  `SELECT id::text AS id, next_index, allocated FROM status_lists WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
);

type CredentialParams = [
  ids: string[], tenantIds: string[], templateIds: string[], issuerDidIds: string[], holders: (string | null)[],
  documents: string[], credentialHashes: string[], statusListIds: string[], statusIndices: number[], expiresAt: string[],
];
type ListParams = [listIds: string[], nextIndices: number[], allocated: string[]];
const CREDENTIAL_PARAMS = 10;
const LIST_PARAMS = 3;

/**
 * Everything a tick writes, in one statement: the credentials of every lane (one multi-row insert),
 * each list's allocation map, and the ledger's leaves, nodes, sizes, signed heads and outbox rows.
 * One round trip whatever the number of issuers in the tick; a failure of any part (a duplicate
 * credential id) aborts the whole statement, and the sequencer finds the guilty member.
 */
export const writeIssueTick = statement<[...CredentialParams, ...ListParams, ...LedgerWriteParams], { ok: number }>(
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
  status_list_rows AS (UPDATE status_lists s SET next_index = u.next_index, allocated = decode(u.allocated, 'hex'), updated_at = now()
    FROM unnest($11::uuid[], $12::int[], $13::text[]) AS u(id, next_index, allocated) WHERE s.id = u.id),
  ${ledgerWriteCtes(CREDENTIAL_PARAMS + LIST_PARAMS + 1)}
  SELECT 1 AS ok`,
);

/** Parameters of the ledger part follow the credentials' and the lists'. */
export const ISSUE_TICK_PARAMS = CREDENTIAL_PARAMS + LIST_PARAMS + LEDGER_WRITE_PARAMS;

/** A credential row as the repository maps it (uuid columns as text). */
export interface CredentialRow {
  readonly id: string;
  readonly tenantId: string;
  readonly templateId: string;
  readonly issuerDidId: string;
  readonly holder: string | null;
  readonly document: Record<string, unknown>;
  readonly credentialHash: Uint8Array;
  readonly statusListId: string;
  readonly statusIndex: number;
  readonly status: string;
  readonly revokedAt: Date | null;
  readonly expiresAt: Date;
}

const CREDENTIAL_COLUMNS = `id, tenant_id::text AS "tenantId", template_id::text AS "templateId", issuer_did_id::text AS "issuerDidId", holder, document,
  credential_hash AS "credentialHash", status_list_id::text AS "statusListId", status_index AS "statusIndex", status, revoked_at AS "revokedAt", expires_at AS "expiresAt"`;
const CREDENTIAL_READ = {
  credentials: {
    id: 'text', tenant_id: 'uuid', template_id: 'uuid', issuer_did_id: 'uuid', holder: 'text', document: 'jsonb', credential_hash: 'bytea',
    status_list_id: 'uuid', status_index: 'int4', status: 'text', revoked_at: 'timestamptz', expires_at: 'timestamptz',
  },
} as const;

/** Any tenant's credential by id (derived proofs are checked wherever they are shown). */
export const credentialById = statement<[id: string], CredentialRow>(
  'credgate_fb_credential_by_id',
  CREDENTIAL_READ,
  `SELECT ${CREDENTIAL_COLUMNS} FROM credentials WHERE id = $1::text`,
);

/** A tenant's own credential (VP creation, GET /credentials/{id}). */
export const credentialForTenant = statement<[id: string, tenantId: string], CredentialRow>(
  'credgate_fb_credential_for_tenant',
  CREDENTIAL_READ,
  `SELECT ${CREDENTIAL_COLUMNS} FROM credentials WHERE id = $1::text AND tenant_id = $2::uuid`,
);

/**
 * One status bit for a verification: the byte holding it (not the 16 KiB list) and the list's
 * issuer. $1 is the byte offset, -1 for an index out of range (then `byte` is null).
 */
export const statusByte = statement<[byte: number, listId: string], { issuerDidId: string; byte: number | null }>(
  'credgate_fb_status_byte',
  { status_lists: { id: 'uuid', issuer_did_id: 'uuid', bits: 'bytea' } },
  `SELECT issuer_did_id::text AS "issuerDidId", CASE WHEN $1::int >= 0 AND $1::int < octet_length(bits) THEN get_byte(bits, $1::int) END AS byte
   FROM status_lists WHERE id = $2::uuid`,
);

/** What `verificationReads` returns: the leaf (its columns null when absent), the log's existence, the status byte. */
export interface VerificationReadsRow {
  readonly index: number | null;
  readonly kind: string | null;
  readonly ref: string | null;
  readonly leafHash: Uint8Array | null;
  readonly logExists: boolean;
  /** Null when there is no such list (or no list id was given). */
  readonly issuerDidId: string | null;
  readonly byte: number | null;
}

/**
 * The reads of one Family B verification in one round trip (issue 19): the credential's leaf in
 * the issuer's log by entry hash (as credgate_ledger_find_leaf), whether that log exists (a
 * missing leaf in a missing log is NOT_FOUND, as the ledger answers it), and the status byte
 * (as credgate_fb_status_byte; $4 null when the credential names no list of this service).
 * Always one row. A plain SELECT on purpose, not a CTE: the read router sends only statements
 * that start with SELECT to the read replica (src/db/read-replica/routing-client.ts), and both
 * reads come from one snapshot of one server, so the status byte is as fresh as before.
 */
export const verificationReads = statement<[seq: string, entryHash: string, byte: number, listId: string | null], VerificationReadsRow>(
  'credgate_fb_verification_reads',
  {
    ledger_leaves: { log_seq: 'int8', entry_hash: 'bytea', index: 'int4', kind: 'text', ref: 'text', leaf_hash: 'bytea' },
    ledger_logs: { seq: 'int8' },
    status_lists: { id: 'uuid', issuer_did_id: 'uuid', bits: 'bytea' },
  },
  `SELECT l.index, l.kind, l.ref, l.leaf_hash AS "leafHash",
     EXISTS (SELECT 1 FROM ledger_logs WHERE seq = $1::bigint) AS "logExists",
     s.issuer_did_id::text AS "issuerDidId", CASE WHEN $3::int >= 0 AND $3::int < octet_length(s.bits) THEN get_byte(s.bits, $3::int) END AS byte
   FROM (VALUES (1)) AS one (n)
   LEFT JOIN ledger_leaves l ON l.log_seq = $1::bigint AND l.entry_hash = decode($2::text, 'hex')
   LEFT JOIN status_lists s ON s.id = $4::uuid`,
);
