import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { openDatabase } from '../../src/db/database';
import { noteBody, parseWitnessVerifierKey, verifyCosignature } from '../../src/witness/cosignature';
import { schemaBody, unwrap } from '../support/family-a-fixtures';
import { type FamilyATransport, graphqlFamilyA, restFamilyA } from '../support/family-a-transports';
import { FB_ATTRIBUTES, FB_VALUES } from '../support/family-b-fixtures';
import { type FamilyBTransport, type FbOutcome, graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import { expectConsistentStore, killQuietly } from '../support/fault-service';
import { endpointAt } from '../support/harness';
import { request } from '../support/http';
import { ROOT, type RunningService, runCliAsync, startService } from '../support/process';
import { type TestDatabase, createTestDatabase } from '../support/test-db';
import { type Transport, graphqlTransport, restTransport } from '../support/transports';
import { type RunningWitness, logVerifierKey, spawnWitness } from '../support/witness-process';

/**
 * Scale-out: two service processes (`node dist/main.js`, different ports, one PostgreSQL database,
 * one master key and public URL) started at the same moment on an empty database, with two
 * witnesses (quorum 2) configured on both. A mixed load spread over both instances and both
 * transports — schema versions of one Family A name, templates with colliding names, Family B
 * issuance and revocation under two issuers, verification — must leave: contiguous unique schema
 * versions, one template per name (one 201, the rest 409), every log's root recomputing from its
 * leaves and matching its signed head, every head cosigned by both witnesses, every issued
 * credential stored once with exactly one leaf, revocations visible on both instances (cache
 * invalidation through LISTEN/NOTIFY), and each migration applied once.
 */
jest.setTimeout(180_000);

type Json = Record<string, any>;

const SCHEMA_VERSIONS = 8;
const TEMPLATE_NAMES = 3;
const CREATES_PER_NAME = 4;
const CREDENTIALS_PER_ISSUER = 10;

const masterKey = randomBytes(32);
let db: TestDatabase;
let dir: string;
const witnesses: RunningWitness[] = [];
let instances: RunningService[] = [];
let pg: Client;
let key: string;

/** Both transports of one instance. */
interface Face {
  readonly label: string;
  readonly url: string;
  readonly fa: FamilyATransport;
  readonly fb: FamilyBTransport;
  readonly slice: Transport;
}
let faces: Face[] = [];
const face = (i: number): Face => faces[i % faces.length]!;

beforeAll(async () => {
  db = await createTestDatabase('postgres');
  if (db.config.kind !== 'postgres') throw new Error('scale-out needs PostgreSQL');
  dir = mkdtempSync(path.join(tmpdir(), 'credgate-scale-'));
  witnesses.push(...(await Promise.all(['scale.test/w1', 'scale.test/w2'].map((name) => spawnWitness({ logKeys: [logVerifierKey(masterKey)], dir, name })))));
  const env = {
    DATABASE_URL: db.config.url,
    CREDGATE_MASTER_KEY: masterKey.toString('hex'),
    CREDGATE_DATA_DIR: db.dataDir,
    CREDGATE_PUBLIC_URL: 'http://credgate.test',
    CREDGATE_WITNESSES: witnesses.map((w) => `${w.verifierKey}@${w.url}`).join(','),
    CREDGATE_WITNESS_QUORUM: '2',
    // One API key drives the whole load (and the checkpoint polls): its deployment-wide budget is
    // not the subject here. The machine is shared, so canonicalisation gets a generous deadline.
    CREDGATE_RATE_LIMIT_PER_API_KEY: '0',
    CREDGATE_CANON_DEADLINE_MS: '20000',
  };
  // Both at once on the empty database: each runs the migrator at start-up.
  const started = await Promise.allSettled([startService(env), startService(env)]);
  instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  for (const s of started) if (s.status === 'rejected') throw s.reason;

  // The loop stays free while the CLI runs (runCliAsync): see test/support/process.ts.
  const tenant = await runCliAsync(['tenant', 'create', 'scale'], env);
  expect(tenant.status).toBe(0);
  const created = await runCliAsync(['api-key', 'create', '--tenant', 'scale', '--scopes', 'issuer,holder,verifier'], env);
  expect(created.status).toBe(0);
  key = (JSON.parse(created.stdout.trim()) as { key: string }).key;

  faces = instances.flatMap((svc, n) => {
    const ep = endpointAt(svc.url);
    return [
      { label: `instance ${n + 1} REST`, url: svc.url, fa: restFamilyA(ep, ''), fb: restFamilyB(ep), slice: restTransport(ep, '') },
      { label: `instance ${n + 1} GraphQL`, url: svc.url, fa: graphqlFamilyA(ep), fb: graphqlFamilyB(ep), slice: graphqlTransport(ep) },
    ];
  });
  // Interleave so that consecutive requests go to different instances: 1 REST, 2 REST, 1 GraphQL, 2 GraphQL.
  faces = [faces[0]!, faces[2]!, faces[1]!, faces[3]!];
  pg = new Client({ connectionString: db.config.url });
  await pg.connect();
});

afterAll(async () => {
  for (const svc of instances) killQuietly(svc);
  await Promise.all(witnesses.map((w) => w.stop()));
  await pg?.end();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function issuerDid(f: Face): Promise<{ did: string; logId: string }> {
  const k = unwrap(await f.slice.generateKeypair(key));
  const doc = unwrap(await f.slice.createDid(key, { method: 'credgate', publicKey: k.publicKey })).document;
  const did = doc.id.slice(0, doc.id.lastIndexOf(':'));
  return { did, logId: unwrap(await f.slice.getDid(key, did)).topicId! };
}

const templateBody = (name: string, issuer: string) => ({ templateName: name, description: 'Badge', issuer, attributes: FB_ATTRIBUTES, expiration: { value: 2, unit: 'years' } });

const rows = async <T extends Json>(sql: string, params: unknown[] = []): Promise<T[]> => (await pg.query(sql, params)).rows as T[];

/** The verification's check of this name. */
const check = (v: { checks: { check: string; ok: boolean; detail?: string | null }[] }, name: string) => v.checks.find((c) => c.check === name);

test('migrations ran once although both instances started together on an empty database', async () => {
  const dirs = readdirSync(path.join(ROOT, 'prisma/migrations'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const applied = await rows<{ migration_name: string; finished: boolean; rolled_back: boolean }>(
    'SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM _prisma_migrations ORDER BY migration_name',
  );
  expect(applied).toEqual(dirs.map((migration_name) => ({ migration_name, finished: true, rolled_back: false })));
  for (const svc of instances) expect(svc.proc.exitCode).toBeNull();
});

test('a mixed load over two instances and both transports leaves nothing lost, doubled, unwitnessed or stale', async () => {
  // Set-up through both instances: a Family A issuer DID (schemas need it), two Family B issuers.
  unwrap(await face(0).fa.issuerDid(key));
  const issuers = await Promise.all([issuerDid(face(0)), issuerDid(face(1))]);
  const holder = unwrap(await face(2).slice.generateKeypair(key));
  const holderDoc = unwrap(await face(2).slice.createDid(key, { method: 'credgate', publicKey: holder.publicKey })).document.id;
  const holderDid = holderDoc.slice(0, holderDoc.lastIndexOf(':'));
  const templates = await Promise.all(issuers.map(async (iss, i) => unwrap(await face(i + 1).fb.createTemplate(key, templateBody(`Issued ${i} ${randomBytes(3).toString('hex')}`, iss.did)))));

  // Phase 1, all at once: schema versions of one name, colliding template names, issuance.
  const schemaName = `Scale${randomBytes(3).toString('hex')}`;
  const collidingNames = Array.from({ length: TEMPLATE_NAMES }, (_, i) => `Collide ${i} ${randomBytes(3).toString('hex')}`);
  const schemaRuns = Array.from({ length: SCHEMA_VERSIONS }, (_, i) => face(i).fa.createSchema(key, schemaBody(schemaName)));
  const templateRuns = collidingNames.flatMap((name, n) =>
    Array.from({ length: CREATES_PER_NAME }, (_, i) => face(i).fb.createTemplate(key, templateBody(name, issuers[(n + i) % 2]!.did)).then((o) => ({ name, o }))),
  );
  const issueRuns = issuers.flatMap((_, n) =>
    Array.from({ length: CREDENTIALS_PER_ISSUER }, (_, i) =>
      face(i + n).fb.issue(key, { templateId: templates[n]!.templateId, credentialSubject: { ...FB_VALUES, employeeNo: 1000 * (n + 1) + i }, holder: holderDid }).then((o) => ({ n, o })),
    ),
  );
  const [schemaOut, templateOut, issueOut] = await Promise.all([Promise.all(schemaRuns), Promise.all(templateRuns), Promise.all(issueRuns)]);

  // Schema versions: every create succeeded, each got its own version, 1..n without a gap.
  const versions = schemaOut.map((o) => Number(unwrap(o).name.slice(schemaName.length + 1))).sort((a, b) => a - b);
  const contiguous = Array.from({ length: SCHEMA_VERSIONS }, (_, i) => i + 1);
  expect(versions).toEqual(contiguous);
  expect((await rows<{ version: number }>('SELECT version FROM credential_schemas WHERE name = $1 ORDER BY version', [schemaName])).map((r) => r.version)).toEqual(contiguous);

  // Colliding template names: exactly one 201 per name, every other create a 409; one row per name.
  for (const name of collidingNames) {
    const outs = templateOut.filter((t) => t.name === name).map((t) => t.o);
    expect(outs.filter((o) => o.ok)).toHaveLength(1);
    expect(outs.filter((o) => !o.ok).map((o) => (o as Extract<FbOutcome<unknown>, { ok: false }>).status)).toEqual(Array(CREATES_PER_NAME - 1).fill(409));
    expect(await rows('SELECT count(*)::int AS n FROM vc_templates WHERE name = $1', [name])).toEqual([{ n: 1 }]);
  }

  // Issuance: every request answered 201 with a distinct credential.
  const issued = issueOut.map(({ n, o }) => ({ n, credential: unwrap(o) as Json }));
  expect(new Set(issued.map((c) => c.credential['id'])).size).toBe(issuers.length * CREDENTIALS_PER_ISSUER);

  // Phase 2, all at once: revoke every third credential on the instance that did not issue it,
  // and verify the others on alternating instances (status and ledger hold; the witnesses may lag).
  const revoked = issued.filter((_, i) => i % 3 === 0);
  const kept = issued.filter((_, i) => i % 3 !== 0);
  const [revokeOut, verifyOut] = await Promise.all([
    Promise.all(revoked.map((c, i) => face(i + 1).fb.revoke(key, c.credential['id']))),
    Promise.all(kept.map((c, i) => face(i).fb.verify(key, c.credential))),
  ]);
  for (const o of revokeOut) expect(unwrap(o)).toMatchObject({ status: 'revoked' });
  for (const o of verifyOut) {
    const v = unwrap(o);
    expect([check(v, 'status')?.ok, check(v, 'ledger')?.ok]).toEqual([true, true]);
  }

  // Nothing lost or doubled: each answered credential is stored once, with one leaf in its issuer's
  // log, and that log holds no other credential.
  for (const [n, iss] of issuers.entries()) {
    const ids = issued.filter((c) => c.n === n).map((c) => c.credential['id'] as string).sort();
    const seq = iss.logId.slice('0.0.'.length);
    const stored = await rows<{ id: string }>('SELECT c.id FROM credentials c JOIN dids d ON d.id = c.issuer_did_id WHERE d.did = $1 ORDER BY c.id', [iss.did]);
    expect(stored.map((r) => r.id)).toEqual(ids);
    const leaves = await rows<{ ref: string }>(`SELECT ref FROM ledger_leaves WHERE log_seq = $1 AND kind = 'credential' ORDER BY ref`, [seq]);
    expect(leaves.map((r) => r.ref)).toEqual(ids);
  }

  // Every log's head is brought up to date (a read signs it) and cosigned by both witnesses.
  const logIds = (await rows<{ seq: string; tree_size: number }>('SELECT seq::text, tree_size FROM ledger_logs ORDER BY seq')).map((l) => ({ logId: `0.0.${l.seq}`, size: l.tree_size }));
  for (const { logId, size } of logIds) {
    let cp: Json = {};
    for (let i = 0; i < 600; i++) {
      cp = (await request(face(i).url, 'GET', `/ledger/${logId}/checkpoint`, { headers: { 'x-api-key': key } })).json;
      if (cp['treeSize'] === size && cp['witnessCosignatures'] === 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect({ logId, treeSize: cp['treeSize'], witnessCosignatures: cp['witnessCosignatures'], witnessQuorum: cp['witnessQuorum'] }).toEqual({ logId, treeSize: size, witnessCosignatures: 2, witnessQuorum: 2 });
  }

  // In the database: every root recomputes from its leaves and matches its signed head; every
  // stored head carries a verifying cosignature of each witness for exactly its size.
  const verifierKey = logVerifierKey(masterKey);
  const opened = await openDatabase(db.config);
  const checked = await expectConsistentStore(opened.sql, verifierKey).finally(() => opened.close());
  expect(checked.sort()).toEqual(logIds.map((l) => l.logId).sort());
  const heads = await rows<{ seq: string; tree_size: number; note: string; size: number }>('SELECT h.log_seq::text AS seq, h.tree_size, h.note, l.tree_size AS size FROM ledger_heads h JOIN ledger_logs l ON l.seq = h.log_seq');
  expect(heads.map((h) => `0.0.${h.seq}`).sort()).toEqual(logIds.map((l) => l.logId).sort());
  for (const head of heads) {
    expect(head.tree_size).toBe(head.size);
    const lines = await rows<{ witness: string; line: string }>('SELECT witness, line FROM ledger_cosignatures WHERE log_seq = $1 AND tree_size = $2 ORDER BY witness', [head.seq, head.tree_size]);
    expect(lines.map((l) => l.witness)).toEqual(witnesses.map((w) => w.name));
    for (const [i, w] of witnesses.entries()) expect(verifyCosignature(noteBody(head.note)!, lines[i]!.line, parseWitnessVerifierKey(w.verifierKey))).toMatchObject({ name: w.name });
  }

  // Revocations are seen on BOTH instances (each through both transports); the rest verify fully.
  for (const f of faces) {
    for (const c of revoked) {
      const v = unwrap(await f.fb.verify(key, c.credential));
      expect({ on: f.label, verified: v.verified, status: check(v, 'status') }).toEqual({ on: f.label, verified: false, status: { check: 'status', ok: false, detail: 'credential has been revoked' } });
    }
  }
  for (const [i, c] of kept.entries()) {
    const v = unwrap(await face(i).fb.verify(key, c.credential));
    expect({ on: face(i).label, verified: v.verified, witnesses: check(v, 'witnesses')?.ok }).toEqual({ on: face(i).label, verified: true, witnesses: true });
  }
});

test('concurrent DID creations over both instances and transports never answer 500: one DID and three logs per key, every repeat answers the same DID', async () => {
  const KEYS = 6;
  const REQUESTS_PER_KEY = 4;
  const pairs = await Promise.all(Array.from({ length: KEYS }, async (_, i) => unwrap(await face(i).slice.generateKeypair(key))));
  const logsBefore = (await rows<{ n: number }>('SELECT count(*)::int AS n FROM ledger_logs'))[0]!.n;
  // Every key registered by several requests at once, spread over both instances and both transports.
  const outs = await Promise.all(
    pairs.flatMap((pair, k) => Array.from({ length: REQUESTS_PER_KEY }, (_, i) => face(k + i).slice.createDid(key, { method: 'credgate', publicKey: pair.publicKey }).then((o) => ({ k, o })))),
  );
  for (const { o } of outs) expect(o.ok ? 200 : (o as { status: number }).status).toBe(200);
  for (let k = 0; k < KEYS; k++) {
    const mine = outs.filter((x) => x.k === k).map((x) => unwrap(x.o));
    expect(new Set(mine.map((m) => m.document.id)).size).toBe(1);
    expect(mine.filter((m) => m.created).length).toBeLessThanOrEqual(1);
    const docId = mine[0]!.document.id;
    expect(await rows('SELECT count(*)::int AS n FROM dids WHERE did = $1', [docId.slice(0, docId.lastIndexOf(':'))])).toEqual([{ n: 1 }]);
  }
  // Three logs per new DID, none for a repeat (a lost race leaves nothing behind).
  expect((await rows<{ n: number }>('SELECT count(*)::int AS n FROM ledger_logs'))[0]!.n - logsBefore).toBe(3 * KEYS);
});
