import { randomBytes } from 'node:crypto';
import type { DatabaseConfig } from '../../src/config';
import { openDatabase } from '../../src/db/database';
import type { SqlExecutor } from '../../src/db/sql-executor';
import { base64ToBytes, bytesToBase64 } from '../../src/domain/encoding';
import { nodeHash, openCheckpoint, parseVerifierKey, rootFromLeafHashes } from '../../src/domain/merkle';
import { type FbParty, FB_VALUES, fbParty } from './family-b-fixtures';
import { type Holder, type Party, newHolder, newParty, schemaBody, subject, unwrap } from './family-a-fixtures';
import type { HolderHeaders } from './family-a-transports';
import { startTestServer } from './harness';
import { request } from './http';
import { type RunningService, startService } from './process';
import { type TestDatabase, createTestDatabase } from './test-db';

/**
 * Fault suites run the compiled service (`node dist/main.js`) in child processes so they can kill
 * it, cut its database, or run two of it. The tenants, keys, DIDs, schema and template are made
 * once through an in-process server on the same database (closed before the children start);
 * the children see them as any restarted instance would.
 */
export interface FaultWorld {
  readonly db: TestDatabase;
  /** The PostgreSQL URL (throws on PGlite, which has none). */
  readonly url: string;
  readonly masterKey: Buffer;
  /** The deployment-wide verifier key of the transparency logs (C2SP note key). */
  readonly verifierKey: string;
  /** Family B: issuer, holder, verifier keys, DIDs and a template. */
  readonly fb: FbParty;
  /** Family A: keys, issuer DID, a schema and the holder's consent for `subject()`. */
  readonly fa: { party: Party; issuerDid: string; schemaName: string; user: Holder; holder: HolderHeaders };
  /** Environment of a child service on this database (overrides win). */
  env(overrides?: Record<string, string>): Record<string, string>;
  /** Starts a child service on this database (overrides win, e.g. DATABASE_URL through a proxy). */
  start(overrides?: Record<string, string>): Promise<RunningService>;
  /**
   * Runs `fn` on the database opened in this process, then closes it. PGlite is one process at a
   * time: stop the child service first.
   */
  inspect<T>(fn: (sql: SqlExecutor) => Promise<T>): Promise<T>;
}

/** The body of one Family B issuance of the world's template. */
export const fbIssueBody = (w: FaultWorld, n: number): Record<string, unknown> => ({
  templateId: w.fb.template['templateId'],
  credentialSubject: { ...FB_VALUES, employeeNo: n },
  holder: w.fb.holder.did,
});

/** The body of one Family A issuance of the world's schema. */
export const faIssueBody = (w: FaultWorld): { schemaName: string; credentialSubject: Record<string, string> } => ({ schemaName: `${w.fa.schemaName}:1`, credentialSubject: subject() });

export async function createFaultWorld(kind: DatabaseConfig['kind'] = 'postgres'): Promise<FaultWorld> {
  const db = await createTestDatabase(kind);
  const config = db.config;
  const masterKey = randomBytes(32);
  const server = await startTestServer({ db, masterKey });
  try {
    const fb = await fbParty(server, 'REST');
    const party = await newParty(server, 'REST');
    const user = await newHolder(party);
    const issuerDid = unwrap(await party.fa.issuerDid(party.issuerKey));
    const schemaName = `Fault${randomBytes(3).toString('hex')}`;
    unwrap(await party.fa.createSchema(party.issuerKey, schemaBody(schemaName)));
    const userSignature = unwrap(await party.fa.sign(party.holderKey, user.privateKey, issuerDid, { credentialSubject: { id: user.did, ...subject() } }));
    const logId = unwrap(await fb.slice.getDid(fb.keys.issuer, fb.issuer.did)).topicId!;
    const verifierKey = await logVerifierKey(server.baseUrl, fb.keys.issuer, logId);
    const env = (overrides: Record<string, string> = {}): Record<string, string> => ({
      // Without DATABASE_URL the service runs PGlite in CREDGATE_DATA_DIR/pgdata, where test-db put it.
      ...(config.kind === 'postgres' ? { DATABASE_URL: config.url } : {}),
      CREDGATE_MASTER_KEY: masterKey.toString('hex'),
      CREDGATE_DATA_DIR: db.dataDir,
      // The checkpoint origin is the public host: fixed, so every restart signs the same logs.
      CREDGATE_PUBLIC_URL: 'http://credgate.test',
      // Verification suites re-check every credential; the limits are not the subject here.
      CREDGATE_RATE_LIMIT_PER_API_KEY: '0',
      CREDGATE_RATE_LIMIT_PER_CREDENTIAL: '0',
      CREDGATE_RATE_LIMIT_PER_IP: '0',
      CREDGATE_CANON_WORKERS: '1',
      CREDGATE_CANON_DEADLINE_MS: '20000',
      CREDGATE_FACE_WORKERS: '1',
      ...overrides,
    });
    return {
      db,
      get url(): string {
        if (config.kind !== 'postgres') throw new Error('this fault suite needs PostgreSQL');
        return config.url;
      },
      masterKey,
      verifierKey,
      fb,
      fa: { party, issuerDid, schemaName, user, holder: { did: user.did, publicKey: user.publicKey, userSignature } },
      env,
      start: (overrides) => startService(env(overrides)),
      async inspect(fn) {
        const opened = await openDatabase(config);
        try {
          return await fn(opened.sql);
        } finally {
          await opened.close();
        }
      },
    };
  } finally {
    await server.close();
  }
}

/** Keeps a child from outliving its test when an assertion fails half-way. */
export function killQuietly(svc: RunningService | undefined): void {
  if (svc && svc.proc.exitCode === null && svc.proc.signalCode === null) svc.proc.kill('SIGKILL');
}

type Row = Record<string, unknown>;

const rows = (c: SqlExecutor, sql: string): Promise<Row[]> => c.query<Row>(sql);

const bit = (bytes: Uint8Array, i: number): boolean => ((bytes[i >> 3]! >> (7 - (i & 7))) & 1) === 1;

/**
 * Nothing half-written, checked in the database: every Family B credential has its ledger leaf
 * and its status slot, and nothing else holds one; every log's leaves are contiguous and its size
 * matches; its node table holds exactly the perfect subtrees of that size, each recomputing from
 * its children; the stored signed head verifies and its root recomputes from the leaves.
 * Returns the ids of the logs (`0.0.<seq>`) it checked.
 */
export async function expectConsistentStore(c: SqlExecutor, verifierKey: string): Promise<string[]> {
  expect(await rows(c, `SELECT c.id FROM credentials c LEFT JOIN ledger_leaves l ON l.kind = 'credential' AND l.ref = c.id WHERE l.ref IS NULL`)).toEqual([]);
  expect(await rows(c, `SELECT l.ref FROM ledger_leaves l LEFT JOIN credentials c ON c.id = l.ref WHERE l.kind = 'credential' AND c.id IS NULL`)).toEqual([]);
  // Exactly one leaf per credential (a repeated ref could stand in for a missing one).
  expect(await rows(c, `SELECT count(*)::int AS n FROM ledger_leaves WHERE kind = 'credential'`)).toEqual(await rows(c, 'SELECT count(*)::int AS n FROM credentials'));

  // Status slots: one per credential, each marked taken, and no slot taken without its credential.
  expect(await rows(c, 'SELECT status_list_id, status_index FROM credentials GROUP BY 1, 2 HAVING count(*) > 1')).toEqual([]);
  for (const list of await rows(c, 'SELECT id, next_index, allocated FROM status_lists')) {
    const taken = (await rows(c, `SELECT status_index FROM credentials WHERE status_list_id = '${String(list['id'])}'`)).map((r) => Number(r['status_index']));
    const allocated = list['allocated'] as Uint8Array;
    let marked = 0;
    for (let i = 0; i < allocated.length * 8; i++) if (bit(allocated, i)) marked++;
    expect({ list: list['id'], marked, nextIndex: list['next_index'] }).toEqual({ list: list['id'], marked: taken.length, nextIndex: taken.length });
    expect(taken.filter((i) => !bit(allocated, i))).toEqual([]);
  }

  const verifier = parseVerifierKey(verifierKey);
  const logs = await rows(c, 'SELECT seq, tree_size FROM ledger_logs ORDER BY seq');
  for (const log of logs) {
    const seq = String(log['seq']);
    const size = Number(log['tree_size']);
    const leaves = (await rows(c, `SELECT index, leaf_hash FROM ledger_leaves WHERE log_seq = ${seq} ORDER BY index`)) as { index: number; leaf_hash: Uint8Array }[];
    expect({ log: seq, indices: leaves.map((l) => l.index) }).toEqual({ log: seq, indices: Array.from({ length: size }, (_, i) => i) });
    const nodes = (await rows(c, `SELECT level, index, hash FROM ledger_nodes WHERE log_seq = ${seq}`)) as { level: number; index: number; hash: Uint8Array }[];
    const byId = new Map(nodes.map((n) => [`${n.level}/${n.index}`, n.hash]));
    // Exactly the perfect subtrees of a tree of `size` leaves: none missing, none beyond it.
    const expected: string[] = [];
    for (let level = 0; size >> level > 0; level++) for (let i = 0; i < size >> level; i++) expected.push(`${level}/${i}`);
    expect({ log: seq, nodes: [...byId.keys()].sort() }).toEqual({ log: seq, nodes: expected.sort() });
    for (const id of expected) {
      const [level, index] = id.split('/').map(Number) as [number, number];
      const want = level === 0 ? leaves[index]!.leaf_hash : nodeHash(byId.get(`${level - 1}/${2 * index}`)!, byId.get(`${level - 1}/${2 * index + 1}`)!);
      expect({ log: seq, node: id, hash: bytesToBase64(byId.get(id)!) }).toEqual({ log: seq, node: id, hash: bytesToBase64(want) });
    }
    const [head] = (await rows(c, `SELECT tree_size, root_hash, note FROM ledger_heads WHERE log_seq = ${seq}`)) as { tree_size: number; root_hash: Uint8Array; note: string }[];
    if (head) {
      expect(head.tree_size).toBeLessThanOrEqual(size);
      const root = rootFromLeafHashes(leaves.slice(0, head.tree_size).map((l) => l.leaf_hash));
      expect({ log: seq, root: bytesToBase64(head.root_hash) }).toEqual({ log: seq, root: bytesToBase64(root) });
      const opened = openCheckpoint(head.note, verifier);
      expect({ log: seq, verified: opened.verified }).toEqual({ log: seq, verified: true });
      expect(opened.checkpoint).toMatchObject({ size: head.tree_size });
      expect(bytesToBase64(opened.checkpoint!.rootHash)).toBe(bytesToBase64(root));
    }
  }
  return logs.map((l) => `0.0.${String(l['seq'])}`);
}

/** The deployment-wide log verifier key, as the service publishes it in a checkpoint. */
async function logVerifierKey(baseUrl: string, apiKey: string, logId: string): Promise<string> {
  const cp = await request(baseUrl, 'GET', `/ledger/${logId}/checkpoint`, { headers: { 'x-api-key': apiKey } });
  expect(cp.status).toBe(200);
  return cp.json.verifierKey as string;
}

const CHECKPOINT = 'query Checkpoint($logId: String!) { ledgerCheckpoint(logId: $logId) { treeSize rootHash } }';

/**
 * Through the API: the current checkpoint of every log (REST and GraphQL agree) has the size of
 * the log and a root that recomputes from the leaf hashes the service serves.
 */
export async function expectLogsRecompute(baseUrl: string, apiKey: string, logIds: readonly string[]): Promise<void> {
  for (const logId of logIds) {
    const cp = await request(baseUrl, 'GET', `/ledger/${logId}/checkpoint`, { headers: { 'x-api-key': apiKey } });
    expect(cp.status).toBe(200);
    const leaves: string[] = [];
    for (let start = 0; start < cp.json.treeSize; start += 10_000) {
      const end = Math.min(cp.json.treeSize, start + 10_000);
      const page = await request(baseUrl, 'GET', `/ledger/${logId}/leaves?start=${start}&end=${end}`, { headers: { 'x-api-key': apiKey } });
      expect(page.status).toBe(200);
      leaves.push(...(page.json.leafHashes as string[]));
    }
    expect(leaves).toHaveLength(cp.json.treeSize);
    expect(bytesToBase64(rootFromLeafHashes(leaves.map((l) => base64ToBytes(l))))).toBe(cp.json.rootHash);
    const gql = await request(baseUrl, 'POST', '/graphql', { headers: { 'x-api-key': apiKey }, body: { query: CHECKPOINT, variables: { logId } } });
    expect(gql.json).toEqual({ data: { ledgerCheckpoint: { treeSize: cp.json.treeSize, rootHash: cp.json.rootHash } } });
  }
}
