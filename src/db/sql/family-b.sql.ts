import { statement } from './statement';

/** Family B credential reads and verification; the issuance tick's statements are in family-b-issue.sql.ts. */

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
