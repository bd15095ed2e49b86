import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from '../support/http';
import { runMain, startService } from '../support/process';
import { createTestDatabase } from '../support/test-db';

const ADMIN = `admin-${randomBytes(12).toString('hex')}`;

describe('the service process (what `npm start` runs)', () => {
  test.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ DATABASE_URL: 'postgresql://127.0.0.1/x' }, /CREDGATE_MASTER_KEY/],
    [{ LOG_LEVEL: 'chatty' }, /LOG_LEVEL/],
  ])('invalid configuration %j stops start-up with one line', (env, reason) => {
    const r = runMain(env as Record<string, string>);
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^credgate: invalid configuration: /);
    expect(lines[0]).toMatch(reason);
  });

  test('starts on embedded PGlite in a data folder, serves /healthz, /graphql and REST, and keeps data across a restart', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'credgate-proc-'));
    try {
      const env = { CREDGATE_DATA_DIR: dataDir, CREDGATE_ADMIN_API_KEY: ADMIN };
      let svc = await startService(env);
      expect(svc.stdout.join('\n')).toMatch(/"database":"pglite"/);
      expect((await request(svc.url, 'GET', '/healthz')).status).toBe(200);
      expect((await request(svc.url, 'GET', '/graphql', { headers: { accept: 'text/html' } })).status).toBe(200);
      const kp = await request(svc.url, 'GET', '/generate-keypair', { headers: { 'x-api-key': ADMIN } });
      const did = await request(svc.url, 'POST', '/dids', { headers: { 'x-api-key': ADMIN }, body: { method: 'credgate', publicKey: kp.json.publicKey } });
      expect(did.status).toBe(201);
      expect(await svc.stop()).toBe(0);
      const firstLogs = svc.stdout.join('\n');

      svc = await startService(env);
      const again = await request(svc.url, 'GET', `/resolve/${encodeURIComponent(did.json.id)}`, { headers: { 'x-api-key': ADMIN } });
      expect(again.status).toBe(200);
      const gql = await request(svc.url, 'POST', '/graphql', { headers: { 'x-api-key': ADMIN }, body: { query: 'query($d: String!) { did(did: $d) { id } }', variables: { d: did.json.id } } });
      expect(gql.json).toEqual({ data: { did: { id: did.json.id } } });
      expect(await svc.stop()).toBe(0);
      const logs = [firstLogs, ...svc.stdout].join('\n');
      for (const line of logs.split('\n')) expect(() => JSON.parse(line)).not.toThrow();
      expect(logs).not.toContain(ADMIN);
      expect(logs).not.toContain(kp.json.privateKey);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('with DATABASE_URL it runs on PostgreSQL', async () => {
    const db = await createTestDatabase('postgres');
    try {
      if (db.config.kind !== 'postgres') throw new Error('expected a PostgreSQL test database');
      const svc = await startService({ DATABASE_URL: db.config.url, CREDGATE_MASTER_KEY: randomBytes(32).toString('hex'), CREDGATE_ADMIN_API_KEY: ADMIN, CREDGATE_DATA_DIR: db.dataDir });
      expect(svc.stdout.join('\n')).toMatch(/"database":"postgres"/);
      expect((await request(svc.url, 'GET', '/readyz')).status).toBe(200);
      expect((await request(svc.url, 'GET', '/generate-keypair', { headers: { 'x-api-key': ADMIN } })).status).toBe(200);
      expect(await svc.stop()).toBe(0);
    } finally {
      await db.drop();
    }
  });
});
