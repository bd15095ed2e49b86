import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { DatabaseConfig } from '../../src/config';
import { MASTER_KEY_FILE } from '../../src/kms/master-key';
import { startTestServer } from '../support/harness';
import { request } from '../support/http';
import { createTestDatabase } from '../support/test-db';

const KINDS: DatabaseConfig['kind'][] = ['postgres', 'pglite'];

describe.each(KINDS)('a restart keeps all data on %s', (kind) => {
  test('API keys, sealed private keys and DIDs survive a restart; another master key cannot open them', async () => {
    const db = await createTestDatabase(kind);
    const masterKey = kind === 'postgres' ? randomBytes(32) : undefined;
    try {
      // First life.
      let server = await startTestServer({ db, ...(masterKey ? { masterKey } : {}) });
      const apiKey = await server.apiKey('acme', ['issuer', 'holder']);
      const kp = await request(server.baseUrl, 'GET', '/generate-keypair', { headers: { 'x-api-key': apiKey } });
      expect(kp.status).toBe(200);
      const created = await request(server.baseUrl, 'POST', '/dids', { headers: { 'x-api-key': apiKey }, body: { method: 'credgate', publicKey: kp.json.publicKey } });
      expect(created.status).toBe(201);
      if (kind === 'pglite') {
        const file = path.join(db.dataDir, MASTER_KEY_FILE);
        expect(existsSync(file)).toBe(true);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        expect(server.logs.text()).toMatch(/generated a new master key/);
      }
      await server.close();

      // Second life, same database and data folder.
      server = await startTestServer({ db, ...(masterKey ? { masterKey } : {}) });
      expect(server.logs.text()).not.toMatch(/generated a new master key/);
      const again = await request(server.baseUrl, 'GET', `/dids/${encodeURIComponent(created.json.id)}`, { headers: { 'x-api-key': apiKey } });
      expect(again.status).toBe(200);
      expect(again.json).toEqual(created.json);
      const actor = await server.app.services.auth.authenticate(apiKey);
      const derived = await server.app.custody.use(actor.tenantId, kp.json.keyId, (sk) => Buffer.from(secp256k1.getPublicKey(sk)).toString('hex'));
      expect(derived).toBe(kp.json.publicKey);
      await server.close();

      // A different master key does not even start (key check; see master-key.e2e.test.ts).
      if (kind === 'postgres') {
        await expect(startTestServer({ db, masterKey: randomBytes(32) })).rejects.toThrow(/master key does not match this database/);
      }
    } finally {
      await db.drop();
    }
  });
});
