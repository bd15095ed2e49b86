import { canonicalBytes } from '../../src/domain/canonical';
import { verifyDetachedEs256k } from '../../src/domain/credentials/es256k-detached';
import { hexToBytes } from '../../src/domain/encoding';
import { decodeList } from '../../src/domain/status-list';
import { unwrap } from '../support/family-a-fixtures';
import { type FbParty, MovableClock, fbParty } from '../support/family-b-fixtures';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';

/*
 * Status lists and expiration (issue 8, "Status lists", "expirationDate"): sequential indices
 * and a validFrom that moves on every issuance leak how many credentials an issuer has and when
 * it issued them; a full list answered 500; the public list was signed on every request; a
 * credential's expirationDate was the template's fixed date.
 */

const clock = new MovableClock();
const server = useTestServer(() => ({ clock }));
afterEach(() => clock.reset());

type Json = Record<string, any>;
const DAY = 86_400_000;
const statusPath = (c: Json) => new URL(c['credentialStatus'].statusListCredential as string).pathname;
const getList = async (path: string) => {
  const res = await request(server.baseUrl, 'GET', path);
  expect(res.status).toBe(200);
  return res.json as Json;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counts unseal-and-sign operations of the key custody. */
function countCustodyUses(): { count: () => number; restore: () => void } {
  const custody = server.app.custody as unknown as { use: (...a: unknown[]) => unknown };
  const original = custody.use;
  let n = 0;
  custody.use = function (this: unknown, ...args: unknown[]) {
    n += 1;
    return original.apply(this, args);
  };
  return { count: () => n, restore: () => void (custody.use = original) };
}

describe.each(['REST', 'GraphQL'])('Family B status lists and expiration through %s', (name) => {
  let p: FbParty;

  beforeAll(async () => {
    p = await fbParty(server, name, { value: 30, unit: 'days' });
  });

  test('status-list indices are drawn at random within the list, never reused', async () => {
    const indices: number[] = [];
    for (let i = 0; i < 6; i += 1) indices.push(Number((await p.issue())['credentialStatus'].statusListIndex));
    expect(new Set(indices).size).toBe(indices.length);
    const consecutive = indices.slice(1).every((v, i) => v === indices[i]! + 1);
    expect(consecutive).toBe(false);
    // Spread over the list, not packed at its start.
    expect(Math.max(...indices)).toBeGreaterThan(1000);
  });

  test("validFrom does not move when a credential is issued; it moves when a bit changes", async () => {
    const c = await p.issue();
    const path = statusPath(c);
    const before = await getList(path);
    clock.advance(3600_000);
    await sleep(1100);
    await p.issue();
    const after = await getList(path);
    expect(after['validFrom']).toBe(before['validFrom']);
    expect(after).toEqual(before);
    unwrap(await p.t.revoke(p.keys.issuer, c['id']));
    const revoked = await getList(path);
    expect(revoked['validFrom']).not.toBe(before['validFrom']);
  });

  test('the public list is signed once per version and served from the stored copy', async () => {
    const c = await p.issue();
    const path = statusPath(c);
    await getList(path);
    const counter = countCustodyUses();
    try {
      const docs = [];
      for (let i = 0; i < 20; i += 1) docs.push(await getList(path));
      expect(counter.count()).toBe(0);
      expect(new Set(docs.map((d) => JSON.stringify(d))).size).toBe(1);
      unwrap(await p.t.revoke(p.keys.issuer, c['id']));
      const fresh = await getList(path);
      for (let i = 0; i < 10; i += 1) expect(await getList(path)).toEqual(fresh);
      // One signature for the new version (the revocation's own custody use is not a list signature).
      expect(counter.count()).toBeLessThanOrEqual(2);
      // The served document is current and its signature verifies under the issuer key.
      const index = Number(c['credentialStatus'].statusListIndex);
      expect(decodeList(fresh['credentialSubject'].encodedList).get(index)).toBe(true);
      const { jws, ...options } = fresh['proof'];
      const { proof: _p, ...doc } = fresh;
      expect(verifyDetachedEs256k(jws, canonicalBytes({ ...doc, proof: options }), hexToBytes(p.issuer.publicKey))).toBe(true);
    } finally {
      counter.restore();
    }
  });

  test('a full status list is a clear error, not a 500', async () => {
    const full = await fbParty(server, name);
    const first = await full.issue();
    const listId = statusPath(first).split('/').pop()!;
    await server.app.db.prisma.$executeRawUnsafe('UPDATE status_lists SET next_index = 131072 WHERE id = $1::uuid', listId);
    const out = await full.t.issue(full.keys.issuer, { templateId: full.template['templateId'], credentialSubject: { name: 'X', birthDate: '2000-01-01', employeeNo: 1 } });
    expect(out).toMatchObject({ ok: false, status: 409 });
    expect(!out.ok && out.message).toMatch(/status list is full/);
  });

  test("expirationDate is the issuance time plus the template's period", async () => {
    clock.advance(10 * DAY);
    const c = await p.issue();
    expect(Date.parse(c['expirationDate']) - Date.parse(c['issuanceDate'])).toBe(30 * DAY);
    // Long after the template was created, a credential is still issued with its full period.
    clock.advance(60 * DAY);
    const late = await p.issue();
    expect(Date.parse(late['expirationDate']) - Date.parse(late['issuanceDate'])).toBe(30 * DAY);
    const v = unwrap(await p.t.verify(p.keys.verifier, late));
    expect(v.checks.find((x) => x.check === 'expiry')).toMatchObject({ ok: true });
  });
});
