import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../../src/app';
import { openDatabase } from '../../src/db/database';
import { migrate, readMigrations } from '../../src/db/migrator';
import { PrismaManagedKeyRepository } from '../../src/db/repositories/managed-key.repository';
import { singleKeyring } from '../../src/kms/envelope';
import { EnvelopeKeyCustody } from '../../src/kms/key-custody';
import { MASTER_KEY_FILE } from '../../src/kms/master-key';
import { deriveCustodyKek, legacyKek } from '../../src/kms/key-derivation';
import { createLogger } from '../../src/logging/logger';
import { LogCapture, type TestServer, startTestServer, testConfig } from '../support/harness';
import { request } from '../support/http';
import { runCli, runMain } from '../support/process';
import { type TestDatabase, createTestDatabase } from '../support/test-db';

/**
 * Attack: an operator (or a deployment mistake) starts Credgate with a master key other than
 * the one the database was created with. The service must refuse to start, with one clear line,
 * before it writes anything: no new ledger key, no rows sealed under the wrong key, no 500s later.
 */
const RIGHT = randomBytes(32);
const WRONG = randomBytes(32);

let tdb: TestDatabase;
let privateKeyHex: string;
let publicKeyHex: string;
let ledgerFileId: string;

/** Every row of every table, as text, so "nothing changed" is checked exactly. */
async function snapshot(): Promise<Record<string, string[]>> {
  const db = await openDatabase(tdb.config);
  try {
    const tables = await db.sql.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const out: Record<string, string[]> = {};
    for (const { table_name } of tables) {
      const rows = await db.sql.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM "${table_name}" t`);
      out[table_name] = rows.map((r) => r.row).sort();
    }
    return out;
  } finally {
    await db.close();
  }
}

async function withServer<T>(masterKey: Buffer, fn: (s: TestServer) => Promise<T>): Promise<T> {
  const server = await startTestServer({ db: tdb, masterKey });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  await withServer(RIGHT, async (s) => {
    const key = await s.apiKey('acme', ['issuer', 'holder']);
    const kp = await request(s.baseUrl, 'GET', '/generate-keypair', { headers: { 'X-API-Key': key } });
    expect(kp.status).toBe(200);
    privateKeyHex = kp.json.privateKey;
    publicKeyHex = kp.json.publicKey;
    const did = await request(s.baseUrl, 'POST', '/dids', { headers: { 'X-API-Key': key }, body: { method: 'credgate', publicKey: publicKeyHex } });
    expect(did.status).toBe(201);
    ledgerFileId = did.json.ledgerFileId;
    expect(ledgerFileId).toMatch(/^0\.0\.\d+$/);
  });
});

afterAll(async () => {
  await tdb?.drop();
});

describe('a wrong master key on a database that holds data', () => {
  test('createApp refuses to start with a clear reason, and nothing in the database changes', async () => {
    const before = await snapshot();
    expect(before['managed_keys']!.length).toBeGreaterThan(0);
    const logs = new LogCapture();
    const attempt = createApp({ config: testConfig(tdb, {}, WRONG), logger: createLogger('info', logs) });
    await expect(attempt).rejects.toThrow(/master key does not match this database/);
    expect(await snapshot()).toEqual(before);
    // The reason names no key material.
    await attempt.catch((e: Error) => {
      expect(e.message).not.toContain(WRONG.toString('hex'));
      expect(e.message).not.toContain(RIGHT.toString('hex'));
      expect(e.message.split('\n')).toHaveLength(1);
    });
  });

  test('the compiled service and the CLI exit 1 with one line that starts with "credgate:"', async () => {
    if (tdb.config.kind !== 'postgres') return expect(tdb.config.kind).toBe('pglite');
    const before = await snapshot();
    const env = { DATABASE_URL: tdb.config.url, CREDGATE_MASTER_KEY: WRONG.toString('hex'), CREDGATE_DATA_DIR: tdb.dataDir };
    for (const r of [runMain(env), runCli(['tenant', 'list'], env)]) {
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^credgate: .*master key does not match this database/);
      expect(r.stdout).not.toMatch(/listening/);
    }
    expect(await snapshot()).toEqual(before);
  });

  test('the right key still starts, opens the stored private key and keeps the same log signing key', async () => {
    await withServer(RIGHT, async (s) => {
      const [tenant] = (await s.app.services.auth.listTenants()).filter((t) => t.slug === 'acme');
      const record = await s.app.custody.findByPublicKey(tenant!.id, 'secp256k1', publicKeyHex);
      const opened = await s.app.custody.use(tenant!.id, record!.id, (sk) => Buffer.from(sk).toString('hex'));
      expect(opened).toBe(privateKeyHex);
      const cp = await s.app.ledger.checkpoint(ledgerFileId);
      expect(cp.treeSize).toBeGreaterThan(0);
    });
  });
});

describe('a fresh database', () => {
  test('accepts its first master key and then only that key', async () => {
    const fresh = await createTestDatabase();
    try {
      const key = randomBytes(32);
      const first = await startTestServer({ db: fresh, masterKey: key });
      await first.close();
      await expect(createApp({ config: testConfig(fresh, {}, randomBytes(32)), logger: createLogger('info', new LogCapture()) })).rejects.toThrow(
        /master key does not match this database/,
      );
      const again = await startTestServer({ db: fresh, masterKey: key });
      await again.close();
    } finally {
      await fresh.drop();
    }
  });
});

describe('a database from before key checks and key separation (private keys sealed under the raw master key)', () => {
  /** Builds such a database: migrated, a tenant, one key sealed the old way, no check value. */
  async function legacyDatabase(master: Buffer): Promise<{ tdb: TestDatabase; tenantId: string; keyId: string; secret: Buffer }> {
    const legacy = await createTestDatabase();
    const db = await openDatabase(legacy.config);
    try {
      await migrate(db.sql, readMigrations());
      const tenant = await db.prisma.tenant.create({ data: { id: randomUUID(), slug: 'old', name: 'Old tenant' } });
      const secret = randomBytes(32);
      const custody = new EnvelopeKeyCustody(singleKeyring(legacyKek(master)), new PrismaManagedKeyRepository(db.prisma));
      const record = await custody.store({ tenantId: tenant.id, algorithm: 'secp256k1', privateKey: secret, publicKeyHex: randomBytes(33).toString('hex'), purpose: 'generated' });
      expect(record.kekId).toBe(legacyKek(master).id);
      return { tdb: legacy, tenantId: tenant.id, keyId: record.id, secret };
    } finally {
      await db.close();
    }
  }

  test('the right key starts, old keys still open, new keys are sealed under the derived KEK', async () => {
    const master = randomBytes(32);
    const legacy = await legacyDatabase(master);
    try {
      const s = await startTestServer({ db: legacy.tdb, masterKey: master });
      try {
        expect(await s.app.custody.use(legacy.tenantId, legacy.keyId, (sk) => Buffer.from(sk))).toEqual(legacy.secret);
        const key = await s.apiKey('old', ['issuer']);
        const kp = await request(s.baseUrl, 'GET', '/generate-keypair', { headers: { 'X-API-Key': key } });
        expect(kp.status).toBe(200);
        const record = await s.app.custody.findByPublicKey(legacy.tenantId, 'secp256k1', kp.json.publicKey);
        expect(record!.kekId).toBe(deriveCustodyKek(master).id);
      } finally {
        await s.close();
      }
      // From now on the stored check value decides.
      await expect(createApp({ config: testConfig(legacy.tdb, {}, randomBytes(32)), logger: createLogger('info', new LogCapture()) })).rejects.toThrow(
        /master key does not match this database/,
      );
    } finally {
      await legacy.tdb.drop();
    }
  });

  test('a wrong key is refused by the sealed rows themselves, and nothing is written', async () => {
    const legacy = await legacyDatabase(randomBytes(32));
    try {
      const attempt = createApp({ config: testConfig(legacy.tdb, {}, randomBytes(32)), logger: createLogger('info', new LogCapture()) });
      await expect(attempt).rejects.toThrow(/master key does not match this database/);
      const db = await openDatabase(legacy.tdb.config);
      try {
        expect(await db.prisma.masterKeyCheck.count()).toBe(0);
        expect(await db.prisma.managedKey.count()).toBe(1);
      } finally {
        await db.close();
      }
    } finally {
      await legacy.tdb.drop();
    }
  });
});

describe('the embedded database (master.key in the data folder)', () => {
  test('a deleted master.key is not silently replaced by a new key; a foreign one is refused', async () => {
    const emb = await createTestDatabase('pglite');
    try {
      const first = await startTestServer({ db: emb });
      await first.apiKey('acme', ['issuer']);
      await first.close();
      const file = path.join(emb.dataDir, MASTER_KEY_FILE);
      const original = readFileSync(file);
      const start = () => createApp({ config: testConfig(emb), logger: createLogger('info', new LogCapture()) });

      rmSync(file);
      await expect(start()).rejects.toThrow(/master\.key is missing but the database was created with a master key/);
      expect(existsSync(file)).toBe(false);

      writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600 });
      await expect(start()).rejects.toThrow(/master key does not match this database/);

      writeFileSync(file, original, { mode: 0o600 });
      const again = await startTestServer({ db: emb });
      await again.close();
    } finally {
      await emb.drop();
    }
  });
});
