import { createHash, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { type Database, openDatabase } from '../../src/db/database';
import { migrate, readMigrations } from '../../src/db/migrator';
import { formatLedgerId } from '../../src/domain/dids/service-did';
import {
  EMPTY_ROOT,
  type NoteVerifier,
  formatCheckpoint,
  leafHash,
  openCheckpoint,
  parseVerifierKey,
  publicKeyOf,
  rootFromLeafHashes,
  verifyConsistency,
  verifyInclusion,
  verifyNote,
} from '../../src/domain/merkle';
import { type Ledger, type LedgerCheckpoint, createLedger, deriveLedgerSeed } from '../../src/ledger';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

const ORIGIN = 'credgate.test/ledger';
const seed = new Uint8Array(randomBytes(32));
/** The trusted key a client would pin: computed from the seed here, never taken from the server. */
const verifier: NoteVerifier = { name: ORIGIN, publicKey: publicKeyOf(seed) };

let tdb: TestDatabase;
let db: Database;
let ledger: Ledger;
let tenantId: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = await openDatabase(tdb.config);
  await migrate(db.sql, readMigrations());
  ledger = createLedger(db.prisma, { seed, origin: ORIGIN });
  tenantId = randomUUID();
  await db.prisma.tenant.create({ data: { id: tenantId, slug: `ledger-${randomBytes(4).toString('hex')}`, name: 'Ledger tests' } });
});

afterAll(async () => {
  await db?.close();
  await tdb?.drop();
});

const b64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));
const sha = (text: string): Uint8Array => new Uint8Array(createHash('sha256').update(text).digest());
const entry = (tag: string, i: number) => ({ entryHash: sha(`${tag}/${i}`), kind: 'test', ref: `${tag}-${i}` });

async function newLog(): Promise<string> {
  const log = await db.prisma.ledgerLog.create({ data: { tenantId, kind: 'test' } });
  // As the DID repository does for the logs it creates: the writer stores the first head.
  await ledger.settle(formatLedgerId(log.seq));
  return formatLedgerId(log.seq);
}

async function fill(logId: string, tag: string, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) expect(await ledger.append(logId, entry(tag, i))).toEqual({ leafIndex: i, created: true });
}

/** Opens a checkpoint with the pinned key and checks it says what the structured fields say. */
function open(cp: LedgerCheckpoint, logId: string): { size: number; root: Uint8Array } {
  const opened = openCheckpoint(cp.note, verifier, `${ORIGIN}/${logId}`);
  expect(opened.verified).toBe(true);
  const root = b64(cp.rootHash);
  expect(opened.checkpoint?.size).toBe(cp.treeSize);
  expect(Buffer.from(opened.checkpoint!.rootHash)).toEqual(Buffer.from(root));
  expect(verifyNote(cp.note, verifier)).toEqual({ verified: true, body: formatCheckpoint({ origin: `${ORIGIN}/${logId}`, size: cp.treeSize, rootHash: root }) });
  return { size: cp.treeSize, root };
}

async function countRows(logId: string): Promise<{ leaves: number; nodes: number; size: number }> {
  const seq = logId.slice('0.0.'.length);
  const [row] = await db.sql.query<{ leaves: string; nodes: string; size: number }>(
    `SELECT (SELECT count(*) FROM ledger_leaves WHERE log_seq = $1)::text AS leaves,
            (SELECT count(*) FROM ledger_nodes WHERE log_seq = $1)::text AS nodes,
            (SELECT tree_size FROM ledger_logs WHERE seq = $1) AS size`,
    [seq],
  );
  return { leaves: Number(row!.leaves), nodes: Number(row!.nodes), size: Number(row!.size) };
}

/** Number of perfect subtrees of a tree of n leaves: n + floor(n/2) + floor(n/4) + ... */
const perfectNodeCount = (n: number): number => {
  let total = 0;
  for (let w = n; w > 0; w = Math.floor(w / 2)) total += w;
  return total;
};

describe('log key', () => {
  test('the seed is HKDF-SHA256(master key, empty salt, info credgate/ledger-log-key/v1), and checkpoints carry its verifier key', async () => {
    const master = randomBytes(32);
    expect(Buffer.from(deriveLedgerSeed(master))).toEqual(Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'credgate/ledger-log-key/v1', 32)));
    expect(Buffer.from(deriveLedgerSeed(master))).not.toEqual(Buffer.from(deriveLedgerSeed(randomBytes(32))));
    const cp = await ledger.checkpoint(await newLog());
    expect(parseVerifierKey(cp.verifierKey)).toMatchObject({ name: ORIGIN, publicKey: verifier.publicKey });
    expect(cp.publicKey).toBe(Buffer.from(verifier.publicKey).toString('base64'));
    // The seed lives only in an ES private field: no enumerable or inspectable property holds it.
    expect(Object.values(ledger).some((v) => v instanceof Uint8Array)).toBe(false);
    expect(inspect(ledger, { depth: 0, showHidden: true })).not.toMatch(/seed|Uint8Array/);
    // Nor does the head signer it delegates to, at any depth.
    expect(Object.values(ledger.heads).some((v) => v instanceof Uint8Array || (typeof v === 'object' && v !== null && 'seed' in v))).toBe(false);
    expect(inspect(ledger.heads, { depth: 0, showHidden: true })).not.toMatch(/seed|Uint8Array/);
  });
});

describe('appending', () => {
  test('an empty log has the RFC 9162 empty root in a signed checkpoint', async () => {
    const logId = await newLog();
    const cp = await ledger.checkpoint(logId);
    expect(cp).toMatchObject({ logId, origin: `${ORIGIN}/${logId}`, treeSize: 0 });
    expect(Buffer.from(open(cp, logId).root)).toEqual(Buffer.from(EMPTY_ROOT));
    expect(await ledger.leafHashes(logId, 0, 0)).toEqual([]);
  });

  test('appends get contiguous indices; a repeated entry hash returns its index and does not grow the tree', async () => {
    const logId = await newLog();
    await fill(logId, 'seq', 0, 5);
    const again = await ledger.append(logId, { ...entry('seq', 2), kind: 'other', ref: 'other-ref' });
    expect(again).toEqual({ leafIndex: 2, created: false });
    expect((await ledger.checkpoint(logId)).treeSize).toBe(5);
    expect(await countRows(logId)).toEqual({ leaves: 5, nodes: perfectNodeCount(5), size: 5 });
    // The first append's kind and ref are kept.
    expect(await ledger.findEntry(logId, entry('seq', 2).entryHash)).toEqual({
      leafIndex: 2,
      kind: 'test',
      ref: 'seq-2',
      leafHash: Buffer.from(leafHash(entry('seq', 2).entryHash)).toString('base64'),
    });
    expect(await ledger.findEntry(logId, sha('never appended'))).toBeNull();
  });

  test('the checkpoint root is the RFC 9162 root of the served leaf hashes, and each leaf hash is H(0x00 || entryHash)', async () => {
    const logId = await newLog();
    await fill(logId, 'root', 0, 11);
    const cp = await ledger.checkpoint(logId);
    const leaves = (await ledger.leafHashes(logId, 0, 11)).map(b64);
    leaves.forEach((h, i) => expect(Buffer.from(h)).toEqual(Buffer.from(leafHash(entry('root', i).entryHash))));
    expect(Buffer.from(rootFromLeafHashes(leaves))).toEqual(Buffer.from(open(cp, logId).root));
    expect((await ledger.leafHashes(logId, 3, 7)).map(b64)).toEqual(leaves.slice(3, 7));
  });

  test('a 37-leaf log: every inclusion proof at every recorded size and every consistency proof between recorded sizes verify', async () => {
    const logId = await newLog();
    const heads = new Map<number, { root: Uint8Array }>();
    for (let size = 1; size <= 37; size++) {
      await fill(logId, 'grow', size - 1, size);
      const cp = await ledger.checkpoint(logId);
      const opened = open(cp, logId);
      expect(opened.size).toBe(size);
      const leaves = (await ledger.leafHashes(logId, 0, size)).map(b64);
      expect(Buffer.from(rootFromLeafHashes(leaves))).toEqual(Buffer.from(opened.root));
      heads.set(size, opened);
    }
    const leaves = (await ledger.leafHashes(logId, 0, 37)).map(b64);
    let inclusions = 0;
    let consistencies = 0;
    for (const [size, { root }] of heads) {
      for (let index = 0; index < size; index++) {
        const proof = (await ledger.inclusionProof(logId, index, size)).map(b64);
        expect(verifyInclusion(leaves[index]!, index, size, proof, root)).toBe(true);
        // The same proof does not show another leaf at that position.
        expect(verifyInclusion(leaves[(index + 1) % 37]!, index, size, proof, root)).toBe(false);
        inclusions++;
      }
      for (const [older, { root: oldRoot }] of heads) {
        if (older > size) continue;
        const proof = (await ledger.consistencyProof(logId, older, size)).map(b64);
        expect(verifyConsistency(older, size, proof, oldRoot, root)).toBe(true);
        consistencies++;
      }
    }
    expect(inclusions).toBe((37 * 38) / 2);
    expect(consistencies).toBe((37 * 38) / 2);
    expect(await countRows(logId)).toEqual({ leaves: 37, nodes: perfectNodeCount(37), size: 37 });
  });

  test('200 parallel appends get indices 0..199 exactly once, with a root that recomputes from the leaves', async () => {
    const logId = await newLog();
    const entries = Array.from({ length: 200 }, (_, i) => entry('parallel', i));
    const results = await Promise.all(entries.map((e) => ledger.append(logId, e)));
    expect(results.every((r) => r.created)).toBe(true);
    expect(results.map((r) => r.leafIndex).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));

    const cp = await ledger.checkpoint(logId);
    expect(cp.treeSize).toBe(200);
    const leaves = (await ledger.leafHashes(logId, 0, 200)).map(b64);
    results.forEach((r, i) => expect(Buffer.from(leaves[r.leafIndex]!)).toEqual(Buffer.from(leafHash(entries[i]!.entryHash))));
    expect(Buffer.from(rootFromLeafHashes(leaves))).toEqual(Buffer.from(open(cp, logId).root));
    expect(await countRows(logId)).toEqual({ leaves: 200, nodes: perfectNodeCount(200), size: 200 });
  });

  test('parallel appends of one entry hash create one leaf', async () => {
    const logId = await newLog();
    const results = await Promise.all(Array.from({ length: 20 }, () => ledger.append(logId, entry('same', 0))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results.every((r) => r.leafIndex === 0)).toBe(true);
    expect(await countRows(logId)).toEqual({ leaves: 1, nodes: 1, size: 1 });
  });
});

describe('transactions', () => {
  test("an append inside a transaction that rolls back leaves no leaf, node or size change", async () => {
    const logId = await newLog();
    await fill(logId, 'tx', 0, 3);
    const before = await countRows(logId);
    const cpBefore = await ledger.checkpoint(logId);
    let seenInside: unknown;
    await expect(
      db.prisma.$transaction(async (tx) => {
        seenInside = await ledger.appendInTransaction(tx, logId, entry('tx', 3));
        throw new Error('caller aborts');
      }),
    ).rejects.toThrow('caller aborts');
    expect(seenInside).toEqual({ leafIndex: 3, created: true });
    expect(await countRows(logId)).toEqual(before);
    expect(before).toEqual({ leaves: 3, nodes: perfectNodeCount(3), size: 3 });
    expect(await ledger.findEntry(logId, entry('tx', 3).entryHash)).toBeNull();
    expect((await ledger.checkpoint(logId)).note).toBe(cpBefore.note);

    // The same append in a transaction that commits takes the freed index.
    const committed = await db.prisma.$transaction((tx) => ledger.appendInTransaction(tx, logId, entry('tx', 3)));
    expect(committed).toEqual({ leafIndex: 3, created: true });
    expect(await countRows(logId)).toEqual({ leaves: 4, nodes: perfectNodeCount(4), size: 4 });
  });
});

describe('tampering with stored rows is detected against a checkpoint signed before it', () => {
  /** Flips the lowest bit of the first byte, in SQL, as an attacker or a disk error would. */
  const flip = (column: string) => `${column} = set_byte(${column}, 0, get_byte(${column}, 0) # 1)`;
  /**
   * The append-only triggers refuse these updates (see ledger-integrity.test.ts); a superuser can
   * switch triggers off, which is the case these tests cover.
   */
  const tamper = (sql: string, params: unknown[]) =>
    db.sql.transaction(async (tx) => {
      await tx.exec('SET LOCAL session_replication_role = replica');
      return tx.query(sql, params);
    });

  async function signedLog(tag: string) {
    const logId = await newLog();
    await fill(logId, tag, 0, 37);
    const signed = open(await ledger.checkpoint(logId), logId);
    expect(signed.size).toBe(37);
    const leaves = (await ledger.leafHashes(logId, 0, 37)).map(b64);
    return { logId, seq: logId.slice('0.0.'.length), signed, leaves };
  }

  test('a corrupted ledger_nodes row: the signed head is still served (never re-signed) and proofs through the node fail', async () => {
    const { logId, seq, signed, leaves } = await signedLog('bad-node');
    // Node (level 2, index 8) covers leaves 32..35; it is one of the three tiles of the size-37 root.
    const updated = await tamper(`UPDATE ledger_nodes SET ${flip('hash')} WHERE log_seq = $1 AND level = 2 AND index = 8 RETURNING 1`, [seq]);
    expect(updated).toHaveLength(1);

    // Reads serve the stored signed head: the server never signs a second root for the same size.
    const after = open(await ledger.checkpoint(logId), logId);
    expect(after.size).toBe(37);
    expect(Buffer.from(after.root)).toEqual(Buffer.from(signed.root));
    // An auditor recomputing from the (intact) leaves gets the signed root, not the served one.
    expect(Buffer.from(rootFromLeafHashes((await ledger.leafHashes(logId, 0, 37)).map(b64)))).toEqual(Buffer.from(signed.root));
    // Inclusion proofs whose path uses the node (leaves 0..31 and 36) fail against the signed root;
    // proofs that do not touch it (leaves 32..35) still verify.
    const failing: number[] = [];
    for (let i = 0; i < 37; i++) {
      const proof = (await ledger.inclusionProof(logId, i, 37)).map(b64);
      if (!verifyInclusion(leaves[i]!, i, 37, proof, signed.root)) failing.push(i);
    }
    expect(failing).toEqual([...Array.from({ length: 32 }, (_, i) => i), 36]);
    // A consistency proof from an earlier signed size to the signed head fails too.
    const root20 = rootFromLeafHashes(leaves.slice(0, 20));
    const proof = (await ledger.consistencyProof(logId, 20, 37)).map(b64);
    expect(verifyConsistency(20, 37, proof, root20, signed.root)).toBe(false);
  });

  test('a corrupted ledger_leaves row: the served leaf hash fails its inclusion proof and the leaves no longer give the signed root', async () => {
    const { logId, seq, signed, leaves } = await signedLog('bad-leaf');
    const updated = await tamper(`UPDATE ledger_leaves SET ${flip('leaf_hash')} WHERE log_seq = $1 AND index = 5 RETURNING 1`, [seq]);
    expect(updated).toHaveLength(1);

    // The stored head is served unchanged: only the leaf data is wrong.
    expect(Buffer.from(open(await ledger.checkpoint(logId), logId).root)).toEqual(Buffer.from(signed.root));
    // Detected by an auditor: the served leaves no longer hash to the signed root.
    const served = (await ledger.leafHashes(logId, 0, 37)).map(b64);
    expect(Buffer.from(served[5]!)).not.toEqual(Buffer.from(leaves[5]!));
    expect(Buffer.from(rootFromLeafHashes(served))).not.toEqual(Buffer.from(signed.root));
    // Detected by a client: the served leaf hash is not H(0x00 || entryHash) and does not verify
    // with its proof, while the leaf hash the client computes from its own entry hash does.
    const found = await ledger.findEntry(logId, entry('bad-leaf', 5).entryHash);
    expect(found?.leafIndex).toBe(5);
    const ownLeaf = leafHash(entry('bad-leaf', 5).entryHash);
    expect(Buffer.from(b64(found!.leafHash))).not.toEqual(Buffer.from(ownLeaf));
    const proof = (await ledger.inclusionProof(logId, 5, 37)).map(b64);
    expect(verifyInclusion(b64(found!.leafHash), 5, 37, proof, signed.root)).toBe(false);
    expect(verifyInclusion(ownLeaf, 5, 37, proof, signed.root)).toBe(true);
  });
});

describe('errors', () => {
  const unknown = '0.0.999999999';

  test('an unknown log is NOT_FOUND for every operation', async () => {
    const notFound = { code: 'NOT_FOUND', message: 'ledger log not found' };
    await expect(ledger.append(unknown, entry('x', 0))).rejects.toMatchObject(notFound);
    await expect(db.prisma.$transaction((tx) => ledger.appendInTransaction(tx, unknown, entry('x', 0)))).rejects.toMatchObject(notFound);
    await expect(ledger.checkpoint(unknown)).rejects.toMatchObject(notFound);
    await expect(ledger.findEntry(unknown, sha('x'))).rejects.toMatchObject(notFound);
    await expect(ledger.inclusionProof(unknown, 0, 1)).rejects.toMatchObject(notFound);
    await expect(ledger.consistencyProof(unknown, 1, 1)).rejects.toMatchObject(notFound);
    await expect(ledger.leafHashes(unknown, 0, 0)).rejects.toMatchObject(notFound);
  });

  test('malformed ledger ids are INVALID_INPUT', async () => {
    for (const bad of ['', 'abc', '0.0', '0.0.', '0.0.01', '1.0.5', '0.1.5', '0.0.-1', '0.0.1.2', ' 0.0.1', '0.0.1 ', '0.0.1e3', '0.0.99999999999999999999', '0.0.9223372036854775808']) {
      await expect(ledger.checkpoint(bad)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    await expect(ledger.append('0.0.x', entry('x', 0))).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  test('bad entries and bad sizes are INVALID_INPUT and change nothing', async () => {
    const logId = await newLog();
    await fill(logId, 'err', 0, 5);
    const invalid = { code: 'INVALID_INPUT' };
    for (const hash of [new Uint8Array(31), new Uint8Array(33), new Uint8Array(0)]) {
      await expect(ledger.append(logId, { entryHash: hash, kind: 'test', ref: 'r' })).rejects.toMatchObject(invalid);
      await expect(ledger.findEntry(logId, hash)).rejects.toMatchObject(invalid);
    }
    await expect(ledger.append(logId, { ...entry('err', 9), kind: '' })).rejects.toMatchObject(invalid);

    for (const [index, size] of [[5, 5], [0, 6], [6, 5], [-1, 5], [0, -1], [1.5, 5], [0, Number.NaN], [0, 2 ** 53]] as const) {
      await expect(ledger.inclusionProof(logId, index, size)).rejects.toMatchObject(invalid);
    }
    for (const [from, to] of [[0, 5], [3, 2], [1, 6], [-1, 5], [1, 2.5]] as const) {
      await expect(ledger.consistencyProof(logId, from, to)).rejects.toMatchObject(invalid);
    }
    for (const [start, end] of [[3, 2], [0, 6], [-1, 2], [0, 10_001], [0, 0.5]] as const) {
      await expect(ledger.leafHashes(logId, start, end)).rejects.toMatchObject(invalid);
    }
    expect(await countRows(logId)).toEqual({ leaves: 5, nodes: perfectNodeCount(5), size: 5 });
    // Edge sizes that are valid: equal sizes give the empty consistency proof; an empty range no leaves.
    expect(await ledger.consistencyProof(logId, 5, 5)).toEqual([]);
    expect(await ledger.leafHashes(logId, 5, 5)).toEqual([]);
  });
});
