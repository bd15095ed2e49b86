import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { type FaultWorld, createFaultWorld, fbIssueBody, killQuietly } from '../support/fault-service';
import { type IssueOutcome, issueOutcome } from '../support/issue-outcome';
import type { RunningService } from '../support/process';

/**
 * `Idempotency-Key` across instances: two service processes (`node dist/main.js`) on one
 * PostgreSQL database receive the same key at the same time. The key lives in the database, so
 * exactly one credential is issued; every other answer is that first result replayed, or 409
 * IDEMPOTENCY_IN_PROGRESS with Retry-After while it runs (src/services/idempotency.service.ts);
 * once it finished, both instances replay it. REST and GraphQL, each with its own keys.
 */
jest.setTimeout(300_000);

const CONCURRENT = 16;

let world: FaultWorld;
let one: RunningService | undefined;
let two: RunningService | undefined;
let pg: Client;

beforeAll(async () => {
  world = await createFaultWorld();
  [one, two] = await Promise.all([world.start(), world.start()]);
  pg = new Client({ connectionString: world.url });
  await pg.connect();
});
afterAll(async () => {
  killQuietly(one);
  killQuietly(two);
  await pg?.end();
  await world?.db.drop();
});

/** Credentials of the world's template with this employee number (the request's own marker). */
async function issuedWith(employeeNo: number): Promise<string[]> {
  const res = await pg.query(`SELECT id FROM credentials WHERE document->'credentialSubject'->0->>'employeeNo' = $1`, [String(employeeNo)]);
  return res.rows.map((r: { id: string }) => r.id);
}

describe.each([
  ['REST', 201],
  ['GraphQL', 200],
] as const)('%s', (transport, okStatus) => {
  test(`${CONCURRENT} concurrent requests with one key, spread over two processes, issue exactly once`, async () => {
    const key = `faults-${randomBytes(8).toString('hex')}`;
    const employeeNo = 500_000 + randomBytes(2).readUInt16BE();
    const body = fbIssueBody(world, employeeNo);
    const instances = [one!, two!];
    const outcomes = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => issueOutcome(instances[i % 2]!.url, transport, world.fb.keys.issuer, body, key)));

    const issued = await issuedWith(employeeNo);
    expect(issued).toHaveLength(1);
    const ok = outcomes.filter((o) => o.status === okStatus);
    const busy = outcomes.filter((o) => o.status === 409);
    expect(ok.length + busy.length).toBe(CONCURRENT);
    // One request ran; every other success is its answer replayed, byte for byte.
    expect(ok.filter((o) => !o.replayed)).toHaveLength(1);
    expect(new Set(ok.map((o) => o.id))).toEqual(new Set(issued));
    const first = ok.find((o) => !o.replayed)!;
    for (const o of ok) expect(o.text).toBe(first.text);
    for (const o of busy) expect({ code: o.code, retryAfter: (o.retryAfter ?? 0) >= 1 }).toEqual({ code: 'IDEMPOTENCY_IN_PROGRESS', retryAfter: true });

    // Afterwards both processes answer the stored first result; a different body is refused.
    const later: IssueOutcome[] = [];
    for (const svc of instances) later.push(await issueOutcome(svc.url, transport, world.fb.keys.issuer, body, key));
    for (const o of later) expect({ status: o.status, replayed: o.replayed, text: o.text }).toEqual({ status: okStatus, replayed: true, text: first.text });
    const reused = await issueOutcome(two!.url, transport, world.fb.keys.issuer, fbIssueBody(world, employeeNo + 1), key);
    expect({ status: reused.status, code: reused.code }).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await issuedWith(employeeNo)).toEqual(issued);
    expect(await issuedWith(employeeNo + 1)).toEqual([]);
  });
});
