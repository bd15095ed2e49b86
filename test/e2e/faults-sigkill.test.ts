import { type FaultWorld, createFaultWorld, expectConsistentStore, expectLogsRecompute, faIssueBody, fbIssueBody, killQuietly } from '../support/fault-service';
import { restFamilyA, graphqlFamilyA } from '../support/family-a-transports';
import { restFamilyB, graphqlFamilyB } from '../support/family-b-transports';
import { endpointAt } from '../support/harness';
import type { RunningService } from '../support/process';
import { TEST_DB_KIND } from '../support/test-db';

/**
 * SIGKILL under issuance load: the service gets no chance to finish anything. A 201 (or a
 * GraphQL success) promises a durable credential, so after a restart on the same database every
 * credential that was answered exists and verifies, and no write is left half-done: no credential
 * without its ledger leaf and status slot, no leaf or slot without its credential, every log's
 * size, nodes and signed head agree with its leaves. Concurrent Family B issuance (REST and
 * GraphQL) with some Family A issuance in between, killed once a number of answers came back.
 * On PostgreSQL by default; `CREDGATE_TEST_DB=pglite` runs the same against the embedded database
 * (whose folder lock the killed process leaves behind).
 */
jest.setTimeout(300_000);

/** Successful answers to collect before the kill (the load keeps running until it lands). */
const ANSWERS_BEFORE_KILL = 40;
const WORKERS = 12;

interface Answer {
  readonly family: 'A' | 'B';
  readonly transport: 'REST' | 'GraphQL';
  readonly id: string;
  readonly document: Record<string, unknown>;
}

let world: FaultWorld;
let svc: RunningService | undefined;

beforeAll(async () => {
  world = await createFaultWorld(TEST_DB_KIND);
});
afterAll(async () => {
  killQuietly(svc);
  await world?.db.drop();
});

test('every credential answered before a SIGKILL survives it and verifies; nothing is half-written; every log recomputes', async () => {
  svc = await world.start();
  const live = endpointAt(svc.url);
  const b = { REST: restFamilyB(live), GraphQL: graphqlFamilyB(live) };
  const a = { REST: restFamilyA(live, ''), GraphQL: graphqlFamilyA(live) };
  const answers: Answer[] = [];
  /** Statuses of refused issuances: only "busy, retry later" (503) is an acceptable refusal. */
  const refused: number[] = [];
  let lost = 0;
  let killed = false;
  let n = 0;

  // One issuance; a network failure (the process died under it) is "lost", never an answer.
  const issueOne = async (): Promise<void> => {
    const i = n++;
    const transport = i % 2 === 0 ? 'REST' : 'GraphQL';
    try {
      if (i % 6 === 5) {
        const out = await a[transport].issue(world.fa.party.issuerKey, world.fa.holder, faIssueBody(world));
        if (out.ok) answers.push({ family: 'A', transport, id: String(out.data.verifiableCredential['id']), document: out.data.verifiableCredential });
        else refused.push(out.status);
      } else {
        const out = await b[transport].issue(world.fb.keys.issuer, fbIssueBody(world, i));
        if (out.ok) answers.push({ family: 'B', transport, id: String(out.data['id']), document: out.data });
        else refused.push(out.status);
      }
    } catch {
      if (!killed) throw new Error('a request failed at the network level before the kill');
      lost++;
    }
  };

  const reached = new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      // At least one Family A answer too: Family B ticks now answer several times faster, so the
      // first answers alone may all be Family B, and the kill must land with both families written.
      if (answers.length >= ANSWERS_BEFORE_KILL && answers.some((x) => x.family === 'A')) {
        clearInterval(poll);
        resolve();
      } else if (svc!.proc.exitCode !== null) {
        clearInterval(poll);
        reject(new Error(`the service exited under load: ${svc!.stderr.join('\n')}`));
      }
    }, 5);
  });
  const workers = Array.from({ length: WORKERS }, async () => {
    while (!killed) await issueOne();
  });
  await reached;
  // Mid-load: every worker has a request in flight when the signal lands.
  svc.proc.kill('SIGKILL');
  killed = true;
  await Promise.all(workers);
  await new Promise<void>((resolve) => (svc!.proc.exitCode !== null || svc!.proc.signalCode !== null ? resolve() : svc!.proc.once('exit', () => resolve())));
  expect(svc.proc.signalCode).toBe('SIGKILL');
  expect(refused.filter((status) => status !== 503)).toEqual([]);
  expect(lost).toBeGreaterThan(0);
  expect(answers.length).toBeGreaterThanOrEqual(ANSWERS_BEFORE_KILL);
  expect(answers.some((x) => x.family === 'A')).toBe(true);
  expect(new Set(answers.map((x) => x.id)).size).toBe(answers.length);
  // The store exactly as the kill left it, before anything restarts.
  const logIds = await world.inspect((sql) => expectConsistentStore(sql, world.verifierKey));

  svc = await world.start();
  const after = endpointAt(svc.url);
  const b2 = { REST: restFamilyB(after), GraphQL: graphqlFamilyB(after) };
  const a2 = { REST: restFamilyA(after, ''), GraphQL: graphqlFamilyA(after) };
  // Every answered credential: read back and verified, through the transport it was not issued on
  // as well as the one it was.
  for (const x of answers) {
    for (const transport of ['REST', 'GraphQL'] as const) {
      if (x.family === 'B') {
        const got = await b2[transport].get(world.fb.keys.issuer, x.id);
        expect({ id: x.id, transport, ok: got.ok }).toEqual({ id: x.id, transport, ok: true });
        const verified = await b2[transport].verify(world.fb.keys.verifier, x.document);
        expect({ id: x.id, transport, verified: verified.ok && verified.data.verified }).toEqual({ id: x.id, transport, verified: true });
      } else {
        const v = await a2[transport].verify(world.fa.party.verifierKey, { publicKey: world.fa.holder.publicKey, userSignature: world.fa.holder.userSignature }, { credentials: x.document });
        expect({ id: x.id, transport, success: v.ok && v.data.success }).toEqual({ id: x.id, transport, success: true });
      }
    }
  }

  // The restarted service keeps issuing into the same logs.
  expect((await b2.REST.issue(world.fb.keys.issuer, fbIssueBody(world, 100_000))).ok).toBe(true);
  await expectLogsRecompute(svc.url, world.fb.keys.verifier, logIds);
  expect(await svc.stop()).toBe(0);
  svc = undefined;
  // Reading the checkpoints signed heads over the grown logs: the store is consistent with them.
  expect(await world.inspect((sql) => expectConsistentStore(sql, world.verifierKey))).toEqual(logIds);
});
