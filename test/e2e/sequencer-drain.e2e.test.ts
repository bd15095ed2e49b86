import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/db/database';
import { rootFromLeafHashes } from '../../src/domain/merkle';
import { type HttpResponse, request } from '../support/http';
import { type RunningService, startService } from '../support/process';
import { createTestDatabase } from '../support/test-db';

/**
 * SIGTERM while issuances are queued and in flight: the service stops accepting connections,
 * commits what was queued, stores the heads, and exits 0. Afterwards every credential answered
 * 201 exists and verifies, and nothing is half-written (every credential has its leaf and every
 * leaf its credential, the status list counts exactly the slots taken, and each log's stored
 * signed head is the root of all its leaves).
 */
const ADMIN = `admin-${randomBytes(12).toString('hex')}`;
const N = 120;

test('SIGTERM drains the issuance batches before the database closes', async () => {
  const db = await createTestDatabase('postgres');
  if (db.config.kind !== 'postgres') throw new Error('expected a PostgreSQL test database');
  const env = {
    DATABASE_URL: db.config.url,
    CREDGATE_MASTER_KEY: randomBytes(32).toString('hex'),
    CREDGATE_ADMIN_API_KEY: ADMIN,
    CREDGATE_DATA_DIR: db.dataDir,
    // Fixed across the restart (the default follows the port): status list URLs and log origins embed it.
    CREDGATE_PUBLIC_URL: 'http://credgate.test',
    // A wide window and small batches: several batches are certainly queued when the signal lands.
    CREDGATE_BATCH_WINDOW_MS: '20',
    CREDGATE_BATCH_MAX: '16',
  };
  const headers = { 'x-api-key': ADMIN };
  let svc: RunningService | undefined;
  try {
    svc = await startService(env);
    const kp = await request(svc.url, 'GET', '/generate-keypair', { headers });
    const did = await request(svc.url, 'POST', '/dids', { headers, body: { method: 'credgate', publicKey: kp.json.publicKey } });
    expect(did.status).toBe(201);
    const issuer = (did.json.id as string).slice(0, (did.json.id as string).lastIndexOf(':'));
    const template = await request(svc.url, 'POST', '/vc-templates', {
      headers,
      body: { templateName: 'Drain', description: 'drain', issuer, attributes: [{ attributeName: 'n', type: 'integer', description: 'n' }], expiration: { value: 1, unit: 'days' } },
    });
    expect(template.status).toBe(201);

    let first!: () => void;
    const firstAnswer = new Promise<void>((resolve) => (first = resolve));
    const outcomes = Array.from({ length: N }, (_, n) =>
      request(svc!.url, 'POST', '/credentials', { headers, body: { templateId: template.json.templateId, credentialSubject: { n } } }).then(
        (r): HttpResponse | null => (first(), r),
        () => (first(), null), // a connection refused after the signal: never answered, so no promise was made
      ),
    );
    await firstAnswer;
    const exitCode = svc.stop();
    const answers = await Promise.all(outcomes);
    expect(await exitCode).toBe(0);

    const created = answers.filter((r): r is HttpResponse => r !== null && r.status === 201);
    // Anything else is a clean refusal (503 while shutting down), never a 500.
    for (const r of answers) if (r !== null && r.status !== 201) expect(r.status).toBe(503);
    expect(created.length).toBeGreaterThan(0);

    // The rows, straight from the database.
    const check = await openDatabase(db.config);
    try {
      const p = check.prisma;
      const ids = created.map((r) => r.json.id as string);
      expect(await p.credential.count({ where: { id: { in: ids } } })).toBe(ids.length);
      const creds = await p.credential.findMany({ select: { id: true, credentialHash: true, statusListId: true } });
      const didRow = await p.did.findFirstOrThrow({ where: { did: issuer } });
      const seq = BigInt(didRow.topicId.slice('0.0.'.length));
      const leaves = await p.ledgerLeaf.findMany({ where: { logSeq: seq }, orderBy: { index: 'asc' } });
      expect(leaves.map((l) => l.index)).toEqual(leaves.map((_, i) => i));
      expect(new Map(leaves.map((l) => [l.ref, Buffer.from(l.entryHash).toString('hex')]))).toEqual(new Map(creds.map((c) => [c.id, Buffer.from(c.credentialHash).toString('hex')])));
      const list = await p.statusList.findUniqueOrThrow({ where: { id: creds[0]!.statusListId } });
      expect(list.nextIndex).toBe(creds.length);
      const log = await p.ledgerLog.findUniqueOrThrow({ where: { seq } });
      const head = await p.ledgerHead.findUniqueOrThrow({ where: { logSeq: seq } });
      expect(head.treeSize).toBe(log.treeSize);
      expect(Buffer.from(head.rootHash).equals(Buffer.from(rootFromLeafHashes(leaves.map((l) => l.leafHash))))).toBe(true);
    } finally {
      await check.close();
    }

    // Every answered credential verifies after a restart, its ledger check included.
    svc = await startService(env);
    try {
      for (const r of created) {
        const v = await request(svc.url, 'POST', '/credentials/verify', { headers, body: { credential: r.json } });
        expect({ status: v.status, checks: v.json.checks.filter((c: { ok: boolean }) => !c.ok) }).toEqual({ status: 200, checks: [] });
      }
    } finally {
      expect(await svc.stop()).toBe(0);
    }
  } finally {
    if (svc && svc.proc.exitCode === null) svc.proc.kill('SIGKILL');
    await db.drop();
  }
});
