import { createHmac, randomBytes, scryptSync, timingSafeEqual, type Hmac } from 'node:crypto';
import { type Kek, kekFromKey } from '../kms/envelope';

/**
 * The tenant archive: JSON lines. Line 1 is the header, then one `{ "table", "row" }` line per
 * row (parents before children), then `{ "end": true, "lines": n, "mac": hex }`: an HMAC-SHA256
 * over every line before it (each with its newline), under a key derived from the passphrase. A
 * changed, dropped, reordered or appended line, or a cut-off file, fails the MAC.
 *
 * Private keys and sealed subjects never appear in plaintext: they are re-sealed (AES-256-GCM
 * envelopes, src/kms/envelope.ts) under a KEK derived from the passphrase with scrypt, bound to
 * their row like the service's own envelopes.
 */
export const ARCHIVE_FORMAT = 'credgate-tenant-archive';
/**
 * 2: adds the VC-API issuers and their status lists, the OpenID4VCI issued-credential records,
 * completed idempotency records, and the witness and anchor state of the tenant's logs. A version 1
 * archive is still read (its tables are a subset); what it lacks was never exported.
 */
export const ARCHIVE_VERSION = 2;
export const READABLE_VERSIONS: readonly number[] = [1, 2];

export interface KdfParams {
  readonly name: 'scrypt';
  readonly salt: string;
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

export interface ArchiveHeader {
  readonly format: typeof ARCHIVE_FORMAT;
  readonly version: number;
  readonly tenant: string;
  readonly createdAt: string;
  readonly kdf: KdfParams;
  /**
   * The exporting deployment's ledger key (base64 Ed25519), for the record only: whoever holds the
   * passphrase can rewrite it, so import takes the key from `--source-log-key` and refuses an
   * archive whose header names another.
   */
  readonly ledgerPublicKey: string;
}

export interface ArchiveKeys {
  readonly kek: Kek;
  readonly macKey: Buffer;
}

/** scrypt N=2^15, r=8, p=1: about 32 MiB and a fraction of a second, per archive (not per row). */
export function newKdfParams(): KdfParams {
  return { name: 'scrypt', salt: randomBytes(16).toString('base64'), N: 1 << 15, r: 8, p: 1 };
}

export function deriveArchiveKeys(passphrase: string, kdf: KdfParams): ArchiveKeys {
  if (kdf.name !== 'scrypt' || !Number.isInteger(kdf.N) || kdf.N < 1 << 14 || kdf.N > 1 << 20 || kdf.r !== 8 || kdf.p < 1 || kdf.p > 4) {
    throw new ArchiveError('the archive names key-derivation parameters this version does not accept');
  }
  const okm = scryptSync(passphrase.normalize('NFC'), Buffer.from(kdf.salt, 'base64'), 64, { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.N * kdf.r });
  try {
    return { kek: kekFromKey(okm.subarray(0, 32)), macKey: Buffer.from(okm.subarray(32)) };
  } finally {
    okm.fill(0);
  }
}

/** A refused archive: tampered, truncated, wrong passphrase or not an archive. Exit 2. */
export class ArchiveError extends Error {}

/** Associated data of a sealed value in an archive: the table, column and row it belongs to. */
export const archiveAad = (table: string, column: string, id: string): string => `credgate/archive/v1|${table}|${column}|${id}`;

/** The running MAC over the lines, shared by the writer and the reader so both hash the same bytes. */
export class LineMac {
  private readonly mac: Hmac;
  count = 0;
  constructor(key: Buffer) {
    this.mac = createHmac('sha256', key);
  }
  add(line: string): void {
    this.mac.update(line + '\n', 'utf8');
    this.count++;
  }
  endLine(): string {
    return JSON.stringify({ end: true, lines: this.count, mac: this.mac.digest('hex') });
  }
  /** Checks the end line against the lines read; constant-time on the MAC. */
  check(end: { lines?: unknown; mac?: unknown }): boolean {
    const mine = this.mac.digest();
    const theirs = typeof end.mac === 'string' && /^[0-9a-f]{64}$/.test(end.mac) ? Buffer.from(end.mac, 'hex') : Buffer.alloc(32);
    return end.lines === this.count && timingSafeEqual(mine, theirs);
  }
}

/** The passphrase from the named environment variable (never argv); at least 12 characters. */
export function passphraseFrom(envName: string): string {
  const value = process.env[envName];
  if (value === undefined || value === '') throw new ArchiveError(`${envName} is not set (it should hold the archive passphrase)`);
  if (value.length < 12) throw new ArchiveError(`the passphrase in ${envName} is too short (12 characters at least)`);
  return value;
}

/** Tables of a tenant, parents first; `sealed` columns hold envelopes re-sealed for the archive. */
export interface ArchiveTable {
  readonly name: string;
  /** The tenant's rows of the table, `$1` being the tenant id (export reads them; import checks references with it). */
  readonly where: string;
  /**
   * Further conditions on the rows export writes. Never part of `where`: the import's reference
   * check must see every row of the tenant an archive brings, including one export would not write.
   */
  readonly exportOnly?: string;
  readonly order: string;
  /**
   * How a row names its tenant: the tenant row itself, its `tenant_id`, its `log_seq` (a log of the
   * tenant), or its `log_id` (`0.0.<seq>` of such a log).
   */
  readonly owner: 'self' | 'tenant' | 'log' | 'logId';
  readonly sealed?: { readonly column: string; readonly kekColumn?: string };
  /** The archive version that first carried the table: an older archive holding its rows is refused. */
  readonly since?: number;
}

const OF_TENANT = 'tenant_id = $1';
const OF_TENANT_LOGS = 'log_seq IN (SELECT seq FROM ledger_logs WHERE tenant_id = $1)';
const OF_TENANT_LOG_IDS = "log_id IN (SELECT '0.0.' || seq::text FROM ledger_logs WHERE tenant_id = $1)";

export const ARCHIVE_TABLES: readonly ArchiveTable[] = [
  { name: 'tenants', where: 'id = $1', order: 'id', owner: 'self' },
  { name: 'api_keys', where: OF_TENANT, order: 'id', owner: 'tenant' },
  { name: 'managed_keys', where: OF_TENANT, order: 'id', owner: 'tenant', sealed: { column: 'encrypted_private_key', kekColumn: 'kek_id' } },
  // OpenID4VC signing keys: the private half is the managed key it names (sealed above), the row holds the public JWK and certificate chain.
  { name: 'oid4vc_keys', where: OF_TENANT, order: 'id', owner: 'tenant' },
  // VC-API issuer instances (their private keys are the managed keys above), their Bitstring status
  // lists with the bits, and which credential holds which index: without them a moved tenant's
  // VC-API credentials lose their status ("status list ... not found").
  { name: 'vc_issuers', where: OF_TENANT, order: 'id', owner: 'tenant', since: 2 },
  { name: 'vc_status_lists', where: OF_TENANT, order: 'id', owner: 'tenant', since: 2 },
  { name: 'vc_credential_status', where: OF_TENANT, order: 'list_id, index', owner: 'tenant', since: 2 },
  { name: 'dids', where: OF_TENANT, order: 'id', owner: 'tenant' },
  { name: 'ledger_logs', where: OF_TENANT, order: 'seq', owner: 'tenant' },
  { name: 'ledger_leaves', where: OF_TENANT_LOGS, order: 'log_seq, index', owner: 'log' },
  { name: 'ledger_nodes', where: OF_TENANT_LOGS, order: 'log_seq, level, index', owner: 'log' },
  { name: 'ledger_heads', where: OF_TENANT_LOGS, order: 'log_seq, tree_size', owner: 'log' },
  // What the witnesses cosigned of the tenant's logs: every line is re-verified against the
  // configured witness key and the served checkpoint on each read, so a moved line counts only
  // where it still verifies (same public host, same witnesses).
  { name: 'ledger_witness_state', where: OF_TENANT_LOGS, order: 'log_seq, witness', owner: 'log', since: 2 },
  { name: 'ledger_cosignatures', where: OF_TENANT_LOGS, order: 'log_seq, witness, tree_size', owner: 'log', since: 2 },
  // Anchoring of the tenant's signed heads: receipts of anchored heads (checked on the ledger at
  // read), and heads still waiting, which this deployment's relay publishes (archive-ledger.ts).
  { name: 'anchor_outbox', where: OF_TENANT_LOG_IDS, order: 'log_id, tree_size', owner: 'logId', since: 2 },
  { name: 'credential_schemas', where: OF_TENANT, order: 'id', owner: 'tenant' },
  { name: 'issued_credentials', where: OF_TENANT, order: 'id', owner: 'tenant', sealed: { column: 'sealed_subject' } },
  { name: 'zkp_certificates', where: OF_TENANT, order: 'signature', owner: 'tenant' },
  { name: 'vc_templates', where: OF_TENANT, order: 'id', owner: 'tenant' },
  { name: 'status_lists', where: OF_TENANT, order: 'id', owner: 'tenant' },
  { name: 'credentials', where: OF_TENANT, order: 'id', owner: 'tenant' },
  // OpenID4VCI offers and what was issued under them; codes, tokens and nonces stay behind (minutes-long secrets).
  { name: 'oid4vci_offers', where: OF_TENANT, order: 'id', owner: 'tenant' },
  { name: 'oid4vci_issuances', where: OF_TENANT, order: 'notification_id', owner: 'tenant' },
  // Each credential delivered under an offer: what GET /oid4vci/offers/{id}/credentials lists and DELETE /credentials/{id} revokes.
  { name: 'oid4vci_issued_credentials', where: OF_TENANT, order: 'id', owner: 'tenant', since: 2 },
  // OID4VP presentation requests and their results; their sealed secrets (oid4vp_request_secrets) stay behind:
  // they only serve a request still pending, which a moved tenant creates again.
  { name: 'oid4vp_requests', where: OF_TENANT, order: 'id', owner: 'tenant' },
  // IETF Token Status Lists (issue 21): the lists with their signed tokens, then which credential holds which slot.
  { name: 'token_status_lists', where: OF_TENANT, order: 'id', owner: 'tenant' },
  { name: 'token_status_entries', where: OF_TENANT, order: 'list_id, idx', owner: 'tenant' },
  // Answered Idempotency-Key records of the tenant's own API keys, until they expire: a client that
  // retries an issuance after the move gets the first answer again instead of a second credential.
  // In-flight claims (status NULL) belong to a process of the exporting deployment and stay behind,
  // as do records of the deployment's CREDGATE_ADMIN_API_KEY (another secret on another deployment).
  {
    name: 'idempotency_keys',
    // tenant_id is text here: compared as ($1::uuid)::text so $1 keeps the uuid type it has in every other scope.
    where: 'tenant_id = ($1::uuid)::text',
    exportOnly: 'status IS NOT NULL AND expires_at > now() AND api_key_id IN (SELECT id::text FROM api_keys WHERE tenant_id = $1)',
    order: 'api_key_id, key',
    owner: 'tenant',
    since: 2,
  },
];

/**
 * Every other table of the schema, and why it stays behind: a table that is in neither list fails
 * test/e2e/tenant-move-roundtrip.e2e.test.ts, so a new table is decided on, not forgotten.
 */
export const NOT_ARCHIVED: Readonly<Record<string, string>> = {
  _prisma_migrations: 'per deployment: which migrations this database has applied',
  master_key_checks: "per deployment: the check value of this database's master key",
  sealed_secrets: "per deployment: secrets sealed under this deployment's master key (ledger seed, OpenID4VC CA key)",
  rate_limit_counters: 'transient: fixed-window counters that reset within a minute',
  oid4vci_authorizations: 'transient: pushed authorization requests and codes, valid for minutes',
  oid4vci_tokens: 'transient: access tokens, valid for minutes; a wallet asks the moved tenant for a new one',
  oid4vci_nonces: 'transient: single-use nonces, not of any tenant',
  oid4vci_dpop_proofs: 'transient: DPoP replay cache, not of any tenant',
  oid4vp_request_secrets: 'transient: private keys of pending presentation requests, which a moved tenant creates again',
};

/**
 * References the schema does not declare as foreign keys, so the catalogue cannot list them: a
 * DID's three log ids (`0.0.<seq>`: issuance appends to its topic), the tenant's Family A issuer
 * DID, a superseded credential's successor. `parent` is an SQL expression over the parent alias
 * `p` that must equal the child's column. Import checks them beside the declared foreign keys.
 */
export interface SoftReference {
  readonly table: string;
  readonly column: string;
  readonly parent: string;
  readonly parentKey: string;
}

export const SOFT_REFERENCES: readonly SoftReference[] = [
  { table: 'dids', column: 'ledger_file_id', parent: 'ledger_logs', parentKey: "'0.0.' || p.seq::text" },
  { table: 'dids', column: 'topic_id', parent: 'ledger_logs', parentKey: "'0.0.' || p.seq::text" },
  { table: 'dids', column: 'template_topic_id', parent: 'ledger_logs', parentKey: "'0.0.' || p.seq::text" },
  { table: 'tenants', column: 'issuer_did_id', parent: 'dids', parentKey: 'p.id' },
  { table: 'issued_credentials', column: 'superseded_by_id', parent: 'issued_credentials', parentKey: 'p.id' },
  // The default VC-API issuer is found by default_tenant_id: a row naming another tenant would become that tenant's default signer.
  { table: 'vc_issuers', column: 'default_tenant_id', parent: 'tenants', parentKey: 'p.id' },
  // A replayed answer belongs to one API key: only the imported tenant's own.
  { table: 'idempotency_keys', column: 'api_key_id', parent: 'api_keys', parentKey: 'p.id::text' },
];
