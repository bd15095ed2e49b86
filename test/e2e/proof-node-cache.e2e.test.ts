import { parseLedgerId } from '../../src/ledger/log-id';
import { PgNodeReader, ProofNodeCache } from '../../src/ledger/pg-node-reader';
import { fbParty, type FbParty } from '../support/family-b-fixtures';
import { unwrap } from '../support/family-a-fixtures';
import { useTestServer } from '../support/harness';
import { StatementCounter } from '../support/statement-counter';

type Json = Record<string, any>;

/**
 * Verification caches the proof nodes of a signed head per (log, size)
 * (src/ledger/pg-node-reader.ts ProofNodeCache): a second verification at the same head neither
 * re-checks the size against the log nor re-reads the nodes, and answers the same proof. Counted at
 * the driver (test/support/statement-counter.ts), like the statement budgets of
 * test/e2e/query-budget.e2e.test.ts — a count, never a time.
 */
const server = useTestServer();
const counter = new StatementCounter();
beforeAll(() => counter.install());
afterAll(() => counter.uninstall());

describe.each(['REST', 'GraphQL'])('proof nodes of a head, through %s', (name) => {
  let p: FbParty;
  beforeAll(async () => {
    p = await fbParty(server, name);
  });

  test('a second verification at the same head sends fewer statements and gets the same proof', async () => {
    const first = await p.issue();
    const second = await p.issue();
    // The verifier key and the issuer's records are warm before the head under test exists.
    expect(unwrap(await p.t.verify(p.keys.verifier, first)).verified).toBe(true);
    await p.issue();
    await p.issue();

    const verify = (credential: Json) => counter.during(async () => unwrap(await p.t.verify(p.keys.verifier, credential)) as Json);
    const cold = await verify(first);
    const warm = await verify(first);
    const sibling = await verify(second);
    process.stdout.write(`statements per verification (${name}): first at the head ${cold.statements}, again ${warm.statements}, another leaf ${sibling.statements}\n`);

    for (const v of [cold, warm, sibling]) expect(v.result['verified']).toBe(true);
    expect(warm.result['anchor']['treeSize']).toBe(cold.result['anchor']['treeSize']);
    expect(warm.result['anchor']['inclusionProof']).toEqual(cold.result['anchor']['inclusionProof']);
    expect(warm.result['anchor']['inclusionProof'].length).toBeGreaterThan(0);
    // Again at the head: neither the size check nor the node read (2 statements).
    expect(warm.statements).toBeLessThanOrEqual(cold.statements - 2);
    // Another leaf at the same head: no size check; the nodes it shares come from memory.
    expect(sibling.statements).toBeLessThan(cold.statements);
  });
});

describe('the bound of the proof-node cache', () => {
  test('nodes come back as stored; beyond the bound the least recently used head goes, and its size is checked again', async () => {
    const p = await fbParty(server, 'REST');
    for (let i = 0; i < 4; i++) await p.issue();
    const logId = String((unwrap(await p.t.verify(p.keys.verifier, await p.issue())) as Json)['anchor']['logId']);
    const seq = parseLedgerId(logId);
    const leaves = [0, 1, 2, 3].map((index) => ({ level: 0, index }));
    const stored = await new PgNodeReader(server.app.db.prisma, seq).getNodes(leaves);

    // Bound 5: each head counts one, plus its nodes.
    const cache = new ProofNodeCache(5);
    const at4 = cache.reader(server.app.db.prisma, seq, 4);
    // Entered when the reader is made (the caller checked the size), before any node is read.
    expect(cache.knows(seq, 4)).toBe(true);
    expect(await at4.getNodes(leaves.slice(0, 2))).toEqual(stored.slice(0, 2));
    expect(cache.size).toBe(3);
    // Served from memory now: equal, and a copy (changing it changes nothing cached).
    const again = await at4.getNodes(leaves.slice(0, 2));
    again[0]!.fill(0);
    expect(await at4.getNodes(leaves.slice(0, 2))).toEqual(stored.slice(0, 2));
    expect(cache.size).toBe(3);

    // Another head of the log takes the cache over the bound: the older head goes, and its size
    // would be checked against the log again.
    const at5 = cache.reader(server.app.db.prisma, seq, 5);
    expect(await at5.getNodes(leaves.slice(1, 3))).toEqual(stored.slice(1, 3));
    expect(cache.size).toBe(3);
    expect(cache.knows(seq, 4)).toBe(false);
    expect(cache.knows(seq, 5)).toBe(true);

    // One head alone beyond the bound starts over rather than grow (its size stays checked).
    const small = new ProofNodeCache(2);
    expect(await small.reader(server.app.db.prisma, seq, 4).getNodes(leaves)).toEqual(stored);
    expect(small.size).toBeLessThanOrEqual(2);
    expect(small.knows(seq, 4)).toBe(true);
  });
});
