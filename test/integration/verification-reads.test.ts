import { randomUUID } from 'node:crypto';
import { canonicalBytes } from '../../src/domain/canonical';
import { sha256 } from '../../src/domain/hash/sha256';
import { PrismaCredentialRepository, STATUS_LIST_BYTES } from '../../src/db/repositories/credential.repository';
import { useTestServer } from '../support/harness';
import { fbParty } from '../support/family-b-fixtures';
import { unwrap } from '../support/family-a-fixtures';
import { StatementCounter } from '../support/statement-counter';

/**
 * A Family B verification reads the credential's leaf and its status bit in one statement
 * (PrismaCredentialRepository.verificationReads, issue 19). It must answer exactly what the two
 * reads it replaces answer: Ledger.findEntry (leaf, null, NOT_FOUND for an unknown log,
 * INVALID_INPUT for a malformed log id or hash) and statusBit (issuer, bit, null out of range),
 * fresh after a revocation. PostgreSQL, or PGlite with CREDGATE_TEST_DB=pglite.
 */
const server = useTestServer();
type Json = Record<string, any>;

describe('verificationReads', () => {
  let repo: PrismaCredentialRepository;
  let doc: Json;
  let logId: string;
  let listId: string;
  let index: number;
  let issuerDidId: string;
  let revoke: () => Promise<void>;
  beforeAll(async () => {
    const p = await fbParty(server, 'REST');
    doc = await p.issue();
    const row = await server.app.db.prisma.credential.findUniqueOrThrow({ where: { id: doc['id'] as string } });
    const issuer = await server.app.db.prisma.did.findUniqueOrThrow({ where: { id: row.issuerDidId } });
    logId = issuer.topicId;
    listId = row.statusListId;
    index = row.statusIndex;
    issuerDidId = row.issuerDidId;
    revoke = async () => void unwrap(await p.t.revoke(p.keys.issuer, doc['id'] as string));
    repo = new PrismaCredentialRepository(server.app.db, server.app.ledger);
  });
  afterAll(() => repo.drain());

  const hashOf = (d: Json): Uint8Array => sha256(canonicalBytes(d));

  test('an anchored, unrevoked credential: the leaf findEntry finds and the bit statusBit reads, in ONE statement', async () => {
    const counter = new StatementCounter().install();
    try {
      const { result, statements } = await counter.during(() => repo.verificationReads(logId, hashOf(doc), { listId, index }));
      expect(statements).toBe(1);
      expect(result.entry).not.toBeNull();
      expect(result.entry).toEqual(await server.app.ledger.findEntry(logId, hashOf(doc)));
      expect(result.bit).toEqual({ issuerDidId, revoked: false });
      expect(result.bit).toEqual(await repo.statusBit(listId, index));
    } finally {
      counter.uninstall();
    }
  });

  test('a hash the log does not hold: no entry, and the status bit is still read', async () => {
    const other = { ...doc, id: `urn:uuid:${randomUUID()}` };
    expect(await server.app.ledger.findEntry(logId, hashOf(other))).toBeNull();
    expect(await repo.verificationReads(logId, hashOf(other), { listId, index })).toEqual({ entry: null, bit: { issuerDidId, revoked: false } });
  });

  test('no list, an unknown list, an index beyond the list or negative: the bit is absent or null, as statusBit answers', async () => {
    const entry = await server.app.ledger.findEntry(logId, hashOf(doc));
    expect(await repo.verificationReads(logId, hashOf(doc), null)).toEqual({ entry, bit: null });
    expect(await repo.verificationReads(logId, hashOf(doc), { listId: randomUUID(), index })).toEqual({ entry, bit: null });
    for (const at of [STATUS_LIST_BYTES * 8, -1, 2 ** 53]) {
      expect(await repo.verificationReads(logId, hashOf(doc), { listId, index: at })).toEqual({ entry, bit: { issuerDidId, revoked: null } });
      expect(await repo.statusBit(listId, at)).toEqual({ issuerDidId, revoked: null });
    }
  });

  test('an unknown log is NOT_FOUND and a malformed log id or hash INVALID_INPUT, as findEntry answers them', async () => {
    const unknown = '0.0.999999999';
    await expect(server.app.ledger.findEntry(unknown, hashOf(doc))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(repo.verificationReads(unknown, hashOf(doc), { listId, index })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    for (const [id, hash] of [['0.0.01', hashOf(doc)], ['topic', hashOf(doc)], [logId, new Uint8Array(31)]] as const) {
      await expect(server.app.ledger.findEntry(id, hash)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(repo.verificationReads(id, hash, { listId, index })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
  });

  test('after a revocation the bit reads revoked at once (never cached)', async () => {
    await revoke();
    expect((await repo.verificationReads(logId, hashOf(doc), { listId, index })).bit).toEqual({ issuerDidId, revoked: true });
  });
});
