/**
 * Issue 20, item 1: a tenant moved with `credgate export` / `credgate import` answers every read
 * exactly as it did before the move. Deployment A gets one of every kind of tenant data (Family A
 * and B credentials, revocations, VC-API issuer instances of eddsa-rdfc-2022 and bbs-2023 with
 * status bits set by a VC-API revoke, an OpenID4VCI offer a wallet redeemed (its Token Status List
 * and delivered-credential records, one revoked alone), another offer by reference, an OID4VP
 * request, API keys, an answered Idempotency-Key, heads cosigned by a `credgate witness` process and
 * anchored on a local anvil chain). Then the tenant is exported, imported into a
 * fresh deployment B (another database, another master key, so another log key), and every read
 * route of the REST route table and every query operation of the SDK (GraphQL) is asked the same
 * questions on both; the answers must be equal up to the differences listed in `normalise`
 * (test/support/tenant-move-questions.ts; the data is made by test/support/tenant-move-data.ts).
 * A GET route or SDK query that this file does not know how to ask fails the test as "not
 * compared", so a read added later is compared or noticed. Runs on PostgreSQL and on PGlite
 * (CREDGATE_TEST_DB=pglite).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deployAnchorContract } from '../../src/anchor/evm/deploy';
import { ARCHIVE_TABLES, NOT_ARCHIVED } from '../../src/cli/archive-format';
import type { Config } from '../../src/config';
import { publicKeyOf } from '../../src/domain/merkle';
import { deriveLedgerSeed } from '../../src/ledger';
import { ANVIL_KEY, Anvil } from '../support/anvil';
import { cliDatabase } from '../support/cli-database';
import type { TestServer } from '../support/harness';
import { request } from '../support/http';
import { freePort, runCliAsync } from '../support/process';
import { readArchive, writeArchive } from '../support/tenant-archive';
import { type Ctx, makeTenantData, settled } from '../support/tenant-move-data';
import { type Answer, EXPECTED_REFUSALS, REST, canonical, normalise, readEverything } from '../support/tenant-move-questions';
import { TEST_DB_KIND } from '../support/test-db';
import { type RunningWitness, logVerifierKey, spawnWitness } from '../support/witness-process';

jest.setTimeout(600_000);

type Json = Record<string, any>;

const source = cliDatabase(TEST_DB_KIND);
const target = cliDatabase(TEST_DB_KIND);
/** A third deployment, for the same tenant from a version 1 archive (what an older release wrote). */
const older = cliDatabase(TEST_DB_KIND);
const PASS = { ARCHIVE_PASS: `correct horse ${randomBytes(4).toString('hex')}` };

describe(`a tenant moved with export / import answers every read as before (${TEST_DB_KIND})`, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'credgate-move-'));
  const archive = path.join(dir, 'tenant.cgarchive');
  let port = 0;
  let host = '';
  const c = {} as Ctx;
  let before: Map<string, Answer>;
  let after: Map<string, Answer>;
  let notCompared: string[] = [];
  let answeredOnA = new Set<string>();
  let sourceKey = '';
  let targetKey = '';
  /** Both deployments' log verifier keys and log public keys (base64), which the move changes on purpose. */
  let logKeys: string[] = [];

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * A and B listen on the same port in turn, so their public URL (and the tenant's URLs) are the
   * same; both have the same witness and anchor to the same chain, as a moved tenant's operator
   * would configure the new deployment.
   */
  let outside: Partial<Config> = {};
  const start = (db: typeof source): Promise<TestServer> => db.startServer({ port, env: { publicUrl: `http://${host}`, ...outside } });
  let witness: RunningWitness | undefined;
  const anvil = new Anvil(path.join(dir, 'anvil-state.json'));

  afterAll(async () => {
    await witness?.stop();
    await anvil.stop();
  });

  beforeAll(async () => {
    port = await freePort();
    host = `127.0.0.1:${port}`;
    sourceKey = logVerifierKey(Buffer.from(source.env['CREDGATE_MASTER_KEY']!, 'hex'), host);
    targetKey = logVerifierKey(Buffer.from(target.env['CREDGATE_MASTER_KEY']!, 'hex'), host);
    const publicOf = (db: typeof source): string => Buffer.from(publicKeyOf(deriveLedgerSeed(Buffer.from(db.env['CREDGATE_MASTER_KEY']!, 'hex')))).toString('base64');
    logKeys = [sourceKey, targetKey, publicOf(source), publicOf(target)];
    // The witness knows A's log key only: what it cosigned of A's heads is what must travel.
    witness = await spawnWitness({ logKeys: [sourceKey], dir, name: 'witness.test/w1' });
    await anvil.start();
    const contract = await deployAnchorContract(anvil.url, ANVIL_KEY);
    outside = {
      witness: { witnesses: [{ verifierKey: witness.verifierKey, name: witness.name, url: witness.url }], quorum: 1 },
      anchor: { mode: 'evm', evm: { rpcUrl: anvil.url, contract, privateKey: ANVIL_KEY }, relay: { pollMs: 100, baseDelayMs: 200, maxDelayMs: 1000, leaseMs: 30_000 } },
    };
    const a = await start(source);
    try {
      await makeTenantData(a, c);
      await settled(a, c);
      const read = await readEverything(a, c);
      before = read.answers;
      notCompared = read.notCompared;
      answeredOnA = read.answered;
    } finally {
      await a.close();
    }
    const env = { CREDGATE_PUBLIC_URL: `http://${host}`, ...PASS };
    const exported = await runCliAsync(['export', '--tenant', c.tenant, '--out', archive, '--passphrase-env', 'ARCHIVE_PASS'], { ...source.env, ...env });
    expect({ status: exported.status, stderr: exported.status === 0 ? '' : exported.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(exported.stdout)).toMatchObject({ exported: true, ledgerVerifierKey: sourceKey });
    const imported = await runCliAsync(['import', '--in', archive, '--passphrase-env', 'ARCHIVE_PASS', '--source-log-key', sourceKey], { ...target.env, ...env });
    expect({ status: imported.status, stderr: imported.status === 0 ? '' : imported.stderr }).toEqual({ status: 0, stderr: '' });
    const b = await start(target);
    try {
      after = (await readEverything(b, c)).answers;
      await replayOnB(b, c);
    } finally {
      await b.close();
    }
  });

  test('every table is either carried by the archive or named as staying behind, with a reason', async () => {
    const s = await start(target);
    try {
      const tables = (await s.app.db.sql.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")).map((r) => r.t);
      const decided = new Set([...ARCHIVE_TABLES.map((t) => t.name), ...Object.keys(NOT_ARCHIVED)]);
      expect(tables.filter((t) => !decided.has(t))).toEqual([]);
      // And nothing decided on that does not exist (a renamed table).
      expect([...decided].filter((t) => !tables.includes(t))).toEqual([]);
    } finally {
      await s.close();
    }
  });

  test('every GET route and every SDK query is asked (none "not compared")', () => {
    expect(notCompared).toEqual([]);
  });

  test('each question about tenant data found it on A: the comparison compares something', () => {
    const refused = [...before]
      .filter(([, a]) => (typeof a.status === 'number' ? a.status >= 400 : a.status !== 'ok' && a.status !== 'verified' && a.status !== 'refused'))
      .map(([k, a]) => `${k} -> ${String(a.status)}`)
      .filter((line) => !EXPECTED_REFUSALS.some(([re]) => re.test(line)));
    expect(refused).toEqual([]);
    // Every GET route asked found something on A, but those whose only answers are the refusals above.
    expect(Object.keys(REST).filter((p) => !answeredOnA.has(p))).toEqual([]);
  });

  test('B answers every question as A did (REST, GraphQL, verification), up to the documented differences', () => {
    const norm = (a: Answer | undefined): unknown => (a === undefined ? 'no answer' : normalise(a, logKeys, host));
    const differences = [...before.keys()]
      .filter((k) => canonical(norm(before.get(k))) !== canonical(norm(after.get(k))))
      .map((k) => ({ question: k, A: norm(before.get(k)), B: norm(after.get(k)) }));
    expect(differences).toEqual([]);
    expect(after.size).toBe(before.size);
  });

  test('revoked stays revoked and valid stays valid after the move, in every family and through both transports', () => {
    // On A first (the revocations took), then on B.
    for (const [side, answers] of [['A', before], ['B', after]] as const) for (const name of ['REST', 'GraphQL']) {
      const outcome = (k: string): unknown => `${side}: ${String(answers.get(k)?.status)}`;
      const want = (refused: boolean): string => `${side}: ${refused ? 'refused' : 'verified'}`;
      c.fa.forEach((f, i) => expect({ k: `${name} Family A #${i}`, s: outcome(`${name} verify Family A #${i}`) }).toEqual({ k: `${name} Family A #${i}`, s: want(f.refused) }));
      c.fb.forEach((f, i) => expect({ k: `${name} Family B #${i}`, s: outcome(`${name} verify Family B #${i}`) }).toEqual({ k: `${name} Family B #${i}`, s: want(f.refused) }));
      c.vcs.forEach((v, i) => expect({ k: `${name} VC-API #${i}`, s: outcome(`${name} verify VC-API #${i}`) }).toEqual({ k: `${name} VC-API #${i}`, s: want(v.refused) }));
      c.vps.forEach((v, i) => expect({ k: `${name} VP #${i}`, s: outcome(`${name} verify Family B presentation #${i}`) }).toEqual({ k: `${name} VP #${i}`, s: want(v.refused) }));
      expect(outcome(`${name} verify ZKP token`)).toBe(want(false));
    }
  });

  test('the VC-API issuers and their status lists moved (the issue as reported)', () => {
    const issuers = after.get('GET /vc-api/issuers')!;
    expect(issuers.status).toBe(200);
    // The default instance (made by the first VC-API use), the eddsa-rdfc-2022 and the bbs-2023 one.
    expect((issuers.body as Json[]).map((i) => `${String(i['cryptosuite'])}${i['default'] ? ' (default)' : ''}`).sort()).toEqual(['bbs-2023', 'eddsa-rdfc-2022', 'eddsa-rdfc-2022 (default)']);
    for (const id of c.vcStatusLists) expect(after.get(`GET /vc-api/status-lists/${id}`)?.status).toBe(200);
  });

  test('the witness and anchor state moved: B serves every head cosigned by the witness and anchored, its receipt re-checked on the chain', () => {
    for (const l of c.logs) {
      expect({ log: l.id, cp: after.get(`GET /ledger/${l.id}/checkpoint`) }).toMatchObject({ log: l.id, cp: { status: 200, body: { witnessCosignatures: 1, witnessQuorum: 1, witnesses: [{ name: 'witness.test/w1', cosigned: true, lastError: null }] } } });
      expect({ log: l.id, a: after.get(`GET /ledger/${l.id}/anchors/${l.size}`) }).toMatchObject({ log: l.id, a: { status: 200, body: { status: 'anchored', check: { status: 'valid' } } } });
    }
  });

  test('an issuance retried with its Idempotency-Key after the move replays the first answer', () => {
    expect(c.idempotent.first.status).toBe(201);
    expect(replayed).toEqual({ status: 201, replayed: 'true', body: c.idempotent.first.body });
  });

  test('a version 1 archive still imports and says what it lacks; the comparison sees the loss issue 20 reported', async () => {
    // What a release before this one wrote: the same header at version 1, without the tables version 2 added.
    const current = readArchive(archive);
    const added = new Set(ARCHIVE_TABLES.filter((t) => (t.since ?? 1) > 1).map((t) => t.name));
    expect(current.lines.filter((l) => added.has(l.table)).length).toBeGreaterThan(0);
    const v1 = path.join(dir, 'v1.cgarchive');
    writeArchive(v1, { header: { ...current.header, version: 1 }, lines: current.lines.filter((l) => !added.has(l.table)) }, PASS.ARCHIVE_PASS);
    const r = await runCliAsync(['import', '--in', v1, '--passphrase-env', 'ARCHIVE_PASS', '--source-log-key', sourceKey], { ...older.env, CREDGATE_PUBLIC_URL: `http://${host}`, ...PASS });
    expect({ status: r.status, stdout: r.status === 0 ? JSON.parse(r.stdout) : r.stderr }).toMatchObject({ status: 0, stdout: { imported: true, version: 1 } });
    expect(r.stderr).toMatch(/archive is of version 1: it carries no VC-API issuers/);
    const s = await start(older);
    try {
      const answers = (await readEverything(s, c)).answers;
      // The VC-API credential that verified on A and B fails here as the issue describes: its status list did not travel.
      const vc = answers.get('REST verify VC-API #0')!;
      expect(vc.status).toBe('refused');
      expect(JSON.stringify(vc.body)).toMatch(/STATUS_RETRIEVAL_ERROR/);
      expect(before.get('REST verify VC-API #0')!.status).toBe('verified');
      expect((answers.get('GET /vc-api/issuers')!.body as Json[]).map((i) => i['id'])).not.toEqual((before.get('GET /vc-api/issuers')!.body as Json[]).map((i) => i['id']));
    } finally {
      await s.close();
    }
  });

  let replayed: { status: number; replayed: string | null; body: unknown } | undefined;
  async function replayOnB(b: TestServer, ctx: Ctx): Promise<void> {
    const res = await request(b.baseUrl, 'POST', '/credentials', { headers: { 'X-API-Key': ctx.idempotent.key, 'Idempotency-Key': 'move-1' }, body: ctx.idempotent.body });
    replayed = { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: res.json };
  }
});

