import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type FaultWorld, createFaultWorld, expectConsistentStore, expectLogsRecompute, fbIssueBody, killQuietly } from '../support/fault-service';
import { type FamilyBTransport, graphqlFamilyB, restFamilyB } from '../support/family-b-transports';
import { endpointAt } from '../support/harness';
import { DIST, ROOT, type RunningService, cleanEnv, freePort, requireBuild, runCliAsync } from '../support/process';

/**
 * `credgate start --workers 2` on PostgreSQL, started once as a child process: a node:cluster
 * primary and two workers on one port. Issuance spread over both workers and both transports
 * lands in one issuer log (one status list, one sequencer lane per worker): the per-list advisory
 * lock of src/ledger/sequencer.ts orders the workers' batches, so every credential verifies and
 * the log, nodes, heads and status slots agree (`credgate ledger verify` too). A worker killed
 * outright is replaced; SIGTERM to the primary drains both workers (no credential answered 201 is
 * lost) and exits 0. Without DATABASE_URL (embedded PGlite, one process) more than one worker is
 * refused in one line.
 */
jest.setTimeout(240_000);

type Json = Record<string, unknown>;

let world: FaultWorld;
let svc: RunningService | undefined;
let b: { REST: FamilyBTransport; GraphQL: FamilyBTransport };
const issued: Json[] = [];

interface LogLine {
  msg?: string;
  worker?: number;
  role?: string;
  method?: string;
  path?: string;
  status?: number;
}
const logLines = (): LogLine[] =>
  svc!.stdout.flatMap((l) => {
    try {
      return [JSON.parse(l) as LogLine];
    } catch {
      return [];
    }
  });

/** Waits (bounded) until `predicate` holds for the log lines so far. */
async function untilLogged(predicate: (lines: LogLine[]) => boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (predicate(logLines())) return;
    if (svc!.proc.exitCode !== null) throw new Error(`the primary exited while waiting for ${what}: ${svc!.stderr.join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not logged: ${what}`);
}

/** The workers the primary forked, from /proc (Linux). */
const workerPids = (): number[] =>
  readFileSync(`/proc/${svc!.proc.pid}/task/${svc!.proc.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);

/** Which workers answered requests to `path` (the access line of each request names its worker). */
const workersServing = (path: string): Set<number> => new Set(logLines().filter((l) => l.msg === 'request' && l.method === 'POST' && l.path === path && l.status !== undefined && l.status < 300).map((l) => l.worker!));

/**
 * `credgate start --workers 2` with an IPC channel, as a supervisor (PM2's wait_ready, the bench)
 * starts it: ready when the primary sends 'ready', which it does once every worker listens.
 */
async function startCluster(env: Record<string, string>): Promise<RunningService> {
  requireBuild();
  const port = await freePort();
  const proc = spawn(process.execPath, [path.join(DIST, 'cli.js'), 'start', '--workers', '2'], { cwd: ROOT, env: cleanEnv({ ...env, PORT: String(port) }), stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  proc.stdout!.on('data', (d: Buffer) => stdout.push(...d.toString().split('\n').filter(Boolean)));
  proc.stderr!.on('data', (d: Buffer) => stderr.push(...d.toString().split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const service: RunningService = { url: `http://127.0.0.1:${port}`, proc, stdout, stderr, stop: () => (proc.kill('SIGTERM'), exited) };
  // Known before it is ready, so afterAll ends it whatever happens.
  svc = service;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no 'ready' from the primary: ${stderr.join('\n')}`)), 60_000);
    proc.on('message', (m) => {
      if (m !== 'ready') return;
      clearTimeout(timer);
      resolve();
    });
    proc.on('exit', () => reject(new Error(`the primary exited during start-up: ${stderr.join('\n')}`)));
  });
  return service;
}

beforeAll(async () => {
  world = await createFaultWorld('postgres');
  // Small batches and a wide window: several batches of both workers queue at once.
  svc = await startCluster(world.env({ CREDGATE_BATCH_WINDOW_MS: '20', CREDGATE_BATCH_MAX: '8' }));
  // 'ready' follows the workers' listening events; their own log lines may trail it on the pipe.
  await untilLogged(
    (lines) => lines.filter((l) => l.msg === 'credgate listening').length === 2 && lines.some((l) => l.role === 'primary' && l.msg === 'credgate cluster: every worker listening'),
    'both workers listening',
  );
  const live = endpointAt(svc.url);
  b = { REST: restFamilyB(live), GraphQL: graphqlFamilyB(live) };
});

afterAll(async () => {
  killQuietly(svc);
  // Workers exit by themselves when their primary's channel closes; killQuietly ends the primary.
  await world?.db.drop();
});

test("the primary migrated and checked the key before forking, and said 'ready' to its supervisor once both workers listened", () => {
  const lines = logLines();
  expect(lines.filter((l) => l.role === 'primary' && l.msg === 'credgate cluster: every worker listening')).toHaveLength(1);
  const prepared = lines.findIndex((l) => l.role === 'primary' && l.msg === 'database migrated and master key checked: starting the workers');
  const firstWorkerLine = lines.findIndex((l) => l.worker !== undefined);
  expect(prepared).toBeGreaterThan(-1);
  expect(firstWorkerLine).toBeGreaterThan(prepared);
  // The world's in-process server had migrated the database: neither the primary nor a worker applied anything.
  expect(lines.filter((l) => l.msg === 'applying database migration')).toEqual([]);
  expect(new Set(lines.filter((l) => l.msg === 'credgate listening').map((l) => l.worker))).toEqual(new Set([1, 2]));
  expect(workerPids()).toHaveLength(2);
});

test('concurrent issuance through both workers, REST and GraphQL: every credential verifies on either transport and the log is consistent', async () => {
  const N = 32;
  const outcomes = await Promise.all(Array.from({ length: N }, (_, i) => b[i % 2 === 0 ? 'REST' : 'GraphQL'].issue(world.fb.keys.issuer, fbIssueBody(world, i))));
  for (const o of outcomes) {
    expect(o.ok).toBe(true);
    if (o.ok) issued.push(o.data);
  }
  expect(new Set(issued.map((c) => c['id'])).size).toBe(N);
  // Both workers issued, through both transports (round-robin hands connections to each in turn).
  expect(workersServing('/credentials')).toEqual(new Set([1, 2]));
  expect(workersServing('/graphql')).toEqual(new Set([1, 2]));

  // Each credential verified through the other transport than the one that issued it, all checks passing.
  const verified = await Promise.all(issued.map((c, i) => b[i % 2 === 0 ? 'GraphQL' : 'REST'].verify(world.fb.keys.verifier, c)));
  for (const [i, v] of verified.entries()) {
    expect({ i, ok: v.ok, failed: v.ok ? v.data.checks.filter((c) => !c.ok) : [] }).toEqual({ i, ok: true, failed: [] });
    expect(v.ok && v.data.verified).toBe(true);
  }
  // The API's checkpoints recompute from the served leaves; the database agrees with itself.
  const logIds = await world.inspect((sql) => expectConsistentStore(sql, world.verifierKey));
  await expectLogsRecompute(svc!.url, world.fb.keys.verifier, logIds);
});

test('a worker killed outright is replaced, and the cluster keeps issuing', async () => {
  const [victim] = workerPids();
  process.kill(victim!, 'SIGKILL');
  await untilLogged((lines) => lines.some((l) => l.role === 'primary' && l.msg === 'a worker died; starting another'), 'the restart');
  await untilLogged((lines) => lines.filter((l) => l.msg === 'credgate listening').length === 3, 'the replacement listening');
  expect(workerPids()).toHaveLength(2);
  expect(workerPids()).not.toContain(victim);
  const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => b[i % 2 === 0 ? 'REST' : 'GraphQL'].issue(world.fb.keys.issuer, fbIssueBody(world, 100 + i))));
  for (const o of outcomes) expect(o.ok).toBe(true);
});

test('SIGTERM to the primary drains both workers: exit 0, every credential answered 201 is stored, `credgate ledger verify` passes', async () => {
  const answered: string[] = [];
  const refused: number[] = [];
  let first!: () => void;
  const firstAnswer = new Promise<void>((resolve) => (first = resolve));
  const requests = Array.from({ length: 96 }, (_, i) =>
    b[i % 2 === 0 ? 'REST' : 'GraphQL']
      .issue(world.fb.keys.issuer, fbIssueBody(world, 1000 + i))
      .then((o) => {
        if (o.ok) answered.push(String(o.data['id']));
        else refused.push(o.status);
      })
      // Refused at the socket after the signal: never answered, so nothing was promised.
      .catch(() => undefined)
      .finally(() => first()),
  );
  await firstAnswer;
  const exited = svc!.stop();
  await Promise.all(requests);
  expect(await exited).toBe(0);
  const lines = logLines();
  // The survivor of the kill above and its replacement (worker 3) each drained on the forwarded signal.
  const drained = lines.filter((l) => l.msg === 'shutting down').map((l) => l.worker);
  expect(drained).toHaveLength(2);
  expect(drained).toContain(3);
  expect(lines.filter((l) => l.role === 'primary' && l.msg === 'every worker stopped')).toHaveLength(1);

  // A clean refusal while stopping is 503; never a 500.
  expect(refused.filter((s) => s !== 503)).toEqual([]);
  expect(answered.length).toBeGreaterThan(0);
  const stored = await world.inspect((sql) => sql.query<{ id: string }>('SELECT id FROM credentials WHERE id = ANY($1::text[])', [answered]));
  expect(stored.map((r) => r.id).sort()).toEqual([...answered].sort());
  await world.inspect((sql) => expectConsistentStore(sql, world.verifierKey));

  const verify = await runCliAsync(['ledger', 'verify'], world.env());
  expect(verify.stderr).not.toMatch(/problem/);
  expect(verify.status).toBe(0);
  expect(JSON.parse(verify.stdout.trim().split('\n').at(-1)!)).toMatchObject({ ok: true, problems: 0 });
});

test('more than one worker on the embedded database is refused in one line, exit 2, before anything opens', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'credgate-workers-pglite-'));
  try {
    const r = await runCliAsync(['start', '--workers', '2'], { CREDGATE_DATA_DIR: dataDir });
    expect(r).toMatchObject({ status: 2, stdout: '' });
    expect(r.stderr).toBe('credgate: invalid configuration: --workers 2 needs DATABASE_URL: the embedded database (PGlite) serves one process; use PostgreSQL or run one worker\n');
    // Refused before the database (or its folder lock) was touched.
    expect(readdirSync(dataDir)).toEqual([]);
    const env = await runCliAsync(['start'], { CREDGATE_DATA_DIR: dataDir, CREDGATE_WORKERS: '3' });
    expect(env.status).toBe(2);
    expect(env.stderr).toMatch(/^credgate: invalid configuration: --workers 3 needs DATABASE_URL: [^\n]+\n$/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
