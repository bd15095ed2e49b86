import { type FaultWorld, createFaultWorld, expectConsistentStore, fbIssueBody, killQuietly } from '../support/fault-service';
import { request } from '../support/http';
import { type IssueOutcome, issueOutcome } from '../support/issue-outcome';
import type { RunningService } from '../support/process';
import { type TcpProxy, startTcpProxy, viaProxy } from '../support/tcp-proxy';

/**
 * PostgreSQL goes away mid-load and comes back. The machine's PostgreSQL is shared, so the outage
 * is a TCP proxy between the service process and the server: stopping it refuses new connections
 * and cuts every open one, which is what the service sees when the database stops. While it is
 * down every request fails fast (each worker keeps getting answers) with 503 + Retry-After (REST)
 * or SERVICE_UNAVAILABLE (GraphQL), never a 500 or a stack trace, and /readyz says the database
 * is unreachable. Once the proxy listens again the same process serves again, without a restart.
 */
jest.setTimeout(300_000);

/** What leaks when an error escapes unmapped: stack frames, driver and ORM names, SQL. */
const LEAKS = /\n\s+at |node_modules|prisma|PrismaClient|ECONNREFUSED|ECONNRESET|Connection terminated|SELECT |INSERT /i;

type Phase = 'up' | 'down' | 'back' | 'across';

/** An issuance answer and the phase its request started (and, but for 'across', ended) in. */
type Outcome = IssueOutcome & { readonly phase: Phase };

let world: FaultWorld;
let proxy: TcpProxy;
let svc: RunningService | undefined;

beforeAll(async () => {
  world = await createFaultWorld();
  const target = new URL(world.url);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
});
afterAll(async () => {
  killQuietly(svc);
  await proxy?.close();
  await world?.db.drop();
});

/** Polls /readyz until it answers `status`; bounded by a number of tries, not asserted on time. */
async function readyz(baseUrl: string, status: number): Promise<{ status: number; json: any }> {
  let last = await request(baseUrl, 'GET', '/readyz');
  for (let i = 0; i < 200 && last.status !== status; i++) {
    await new Promise((r) => setTimeout(r, 100));
    last = await request(baseUrl, 'GET', '/readyz');
  }
  return { status: last.status, json: last.json };
}

test('PostgreSQL stopped mid-load: fast 503s and an unready probe, then recovery without a restart', async () => {
  svc = await world.start({ DATABASE_URL: viaProxy(world.url, proxy), CREDGATE_DB_CONNECT_TIMEOUT_MS: '1000' });
  expect(await readyz(svc.url, 200)).toEqual({ status: 200, json: { status: 'ok', database: 'ok' } });

  const outcomes: Outcome[] = [];
  let phase: Phase = 'up';
  let running = true;
  let n = 0;
  const count = (p: Phase, t?: Outcome['transport']) => outcomes.filter((o) => o.phase === p && (t === undefined || o.transport === t)).length;
  const until = async (cond: () => boolean): Promise<void> => {
    for (let i = 0; i < 3000 && !cond(); i++) {
      if (svc!.proc.exitCode !== null) throw new Error(`the service exited: ${svc!.stderr.join('\n')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(cond()).toBe(true);
  };
  // Six workers, REST and GraphQL, each issuing one credential after another the whole time.
  const workers = Array.from({ length: 6 }, async (_, w) => {
    const transport = w % 2 === 0 ? 'REST' : 'GraphQL';
    while (running) {
      // A request that spans a change (running when the proxy stops, or still waiting when it
      // listens again) may finish either way: only one that started and ended during the outage
      // is held to 503. Phases change after the outage began and before it ends.
      const started = phase;
      const o = await issueOutcome(svc!.url, transport, world.fb.keys.issuer, fbIssueBody(world, n++));
      outcomes.push({ ...o, phase: started === phase ? started : 'across' });
    }
  });

  await until(() => count('up') >= 12);
  await proxy.stop();
  phase = 'down';
  // Failing fast: with the database gone each worker keeps getting answers, several each.
  await until(() => count('down', 'REST') >= 15 && count('down', 'GraphQL') >= 15);
  // Keyed requests during the outage are 503 too, and leave their key free (nothing was claimed).
  const keyed = (['REST', 'GraphQL'] as const).map((transport, i) => ({ transport, key: `outage-${transport}-${n}`, body: fbIssueBody(world, 900_000 + i) }));
  for (const k of keyed) {
    const o = await issueOutcome(svc.url, k.transport, world.fb.keys.issuer, k.body, k.key);
    expect({ transport: k.transport, status: o.status, code: o.code }).toEqual({ transport: k.transport, status: 503, code: 'SERVICE_UNAVAILABLE' });
  }
  const notReady = await readyz(svc.url, 503);
  expect(notReady).toEqual({ status: 503, json: { status: 'unavailable', database: 'unreachable' } });

  // Reads and authentication need the database as well: the same answer, in each family's shape.
  const read = await request(svc.url, 'GET', `/credentials/${encodeURIComponent(String(outcomes.find((o) => o.id)!.id))}`, { headers: { 'x-api-key': world.fb.keys.issuer } });
  expect({ status: read.status, code: read.json?.code, retryAfter: Number(read.headers.get('retry-after')) }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: expect.any(Number) });
  const familyA = await request(svc.url, 'GET', '/api/issuer/schemas', { headers: { 'x-api-key': world.fa.party.issuerKey } });
  expect(familyA.status).toBe(503);
  expect(familyA.json).toMatchObject({ success: false, status: 503, code: 'SERVICE_UNAVAILABLE' });
  expect(familyA.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  for (const res of [read, familyA]) expect(res.text).not.toMatch(LEAKS);

  phase = 'back';
  await proxy.start();
  expect(await readyz(svc.url, 200)).toEqual({ status: 200, json: { status: 'ok', database: 'ok' } });
  await until(() => outcomes.filter((o) => o.phase === 'back' && o.id !== undefined && o.transport === 'REST').length >= 3 && outcomes.filter((o) => o.phase === 'back' && o.id !== undefined && o.transport === 'GraphQL').length >= 3);
  running = false;
  await Promise.all(workers);

  // The client's retry with the same Idempotency-Key, once the database is back: it runs once.
  for (const k of keyed) {
    const retry = await issueOutcome(svc.url, k.transport, world.fb.keys.issuer, k.body, k.key);
    expect({ transport: k.transport, status: retry.status, replayed: retry.replayed }).toEqual({ transport: k.transport, status: k.transport === 'REST' ? 201 : 200, replayed: false });
    const again = await issueOutcome(svc.url, k.transport, world.fb.keys.issuer, k.body, k.key);
    expect({ replayed: again.replayed, id: again.id }).toEqual({ replayed: true, id: retry.id });
  }

  // Never a 500, never a leak: a success or a 503 with Retry-After, whatever the phase.
  for (const o of outcomes) {
    const ok = o.id !== undefined;
    const shape = ok ? { status: o.status, code: o.code } : { status: o.status, code: o.code, retryAfter: o.retryAfter };
    expect({ phase: o.phase, transport: o.transport, ...shape }).toEqual(
      ok ? { phase: o.phase, transport: o.transport, status: o.transport === 'REST' ? 201 : 200, code: undefined } : { phase: o.phase, transport: o.transport, status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: expect.any(Number) },
    );
    if (!ok) {
      expect(o.retryAfter).toBeGreaterThanOrEqual(1);
      expect(o.text).not.toMatch(LEAKS);
    }
  }
  // Everything started during the outage failed; the same process served before and after it.
  expect(outcomes.filter((o) => o.phase === 'down' && o.id !== undefined)).toEqual([]);
  expect(svc.proc.exitCode).toBeNull();
  expect(svc.stderr.join('\n')).not.toMatch(/uncaught|unhandled/i);

  // Every answered credential is there, and the outage left nothing half-written.
  const answered = outcomes.filter((o) => o.id !== undefined);
  for (const o of answered) {
    const got = await request(svc.url, 'GET', `/credentials/${encodeURIComponent(o.id!)}`, { headers: { 'x-api-key': world.fb.keys.issuer } });
    expect({ id: o.id, status: got.status }).toEqual({ id: o.id, status: 200 });
  }
  await world.inspect((sql) => expectConsistentStore(sql, world.verifierKey));
  expect(await svc.stop()).toBe(0);
  svc = undefined;
});
