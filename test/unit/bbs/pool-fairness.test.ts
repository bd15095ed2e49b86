import { Bbs2023Engine } from '../../../src/formats/bbs-2023/engine';
import { g2DidKey } from '../../../src/formats/bbs-2023/did-key';
import { runAsTenant } from '../../../src/fairness/tenant-context';
import type { JsonObject } from '../../../src/vc/ports';

/**
 * The BBS pool shares its workers fairly: with two workers one tenant runs at most one job at a
 * time, so another tenant's job is served beside a backlog instead of after it; and a tenant whose
 * queue is full is refused with 503 + Retry-After while others are still admitted. Ordering, not
 * time, is asserted.
 */
describe('BBS worker pool fairness', () => {
  const engine = new Bbs2023Engine({ size: 2, deadlineMs: 60_000, queuePerTenant: 4, retryAfterSeconds: 2 });
  afterAll(() => engine.close());

  let derived: JsonObject;
  let base: JsonObject;

  beforeAll(async () => {
    const key = await engine.generateKeyPair();
    const { did } = g2DidKey(key.publicKey);
    base = await engine.sign(
      { '@context': ['https://www.w3.org/ns/credentials/v2', { '@vocab': 'https://credgate.example/vocab#' }], type: ['VerifiableCredential'], issuer: did, credentialSubject: { a: 1, b: 2 } },
      key,
      ['/issuer'],
    );
    derived = await engine.derive(base, ['/credentialSubject/a']);
    // Both workers started (two tenants at once), so no job below waits for a worker to load.
    await Promise.all([runAsTenant('warm-1', () => engine.verify(derived)), runAsTenant('warm-2', () => engine.verify(derived))]);
  });

  it("one tenant's backlog does not hold another tenant's job back, and a full queue is 503 for that tenant only", async () => {
    const finished: string[] = [];
    const backlog = Array.from({ length: 5 }, (_, i) =>
      runAsTenant('tenant-a', () => engine.derive(base, ['/credentialSubject/b']).then(() => finished.push(`a${i}`))),
    );
    // Tenant A: 1 running + 4 waiting fills its queue; one more is refused at once.
    const refused = await runAsTenant('tenant-a', () => engine.verify(derived).catch((e: unknown) => e));
    expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 2 });
    const other = runAsTenant('tenant-b', () => engine.verify(derived).then((r) => (finished.push('b'), r)));
    expect((await other).verified).toBe(true);
    await Promise.all(backlog);
    // B ran on the second worker beside A's backlog, not after it.
    expect(finished.indexOf('b')).toBeLessThan(finished.indexOf('a4'));
    expect(finished.filter((f) => f.startsWith('a'))).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
  });
});
