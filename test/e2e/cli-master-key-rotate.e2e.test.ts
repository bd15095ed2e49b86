import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { openDatabase } from '../../src/db/database';
import { deriveCustodyKek, keyringFor } from '../../src/kms/key-derivation';
import { kekIdOf } from '../../src/kms/envelope';
import { openManagedKey } from '../../src/kms/key-custody';
import { rotateMasterKey } from '../../src/kms/rotation';
import { EnvelopeSecretBox } from '../../src/kms/secret-box';
import { sealedSubjectContext } from '../../src/services/family-a/credentials.service';
import { cliDatabase } from '../support/cli-database';
import { issueSealedSubject } from '../support/cli-fixtures';
import { unwrap } from '../support/family-a-fixtures';
import { type FbParty, fbParty } from '../support/family-b-fixtures';
import { restFamilyB } from '../support/family-b-transports';
import type { TestServer } from '../support/harness';
import { DIST, ROOT, cleanEnv, runCli, runMain, startService } from '../support/process';

const cli = cliDatabase();
const oldKey = (): string => cli.env['CREDGATE_MASTER_KEY']!;
const newKey = randomBytes(32);
/** The same public URL as the harness server that issued (status list URLs name it); no rate limit in the verify loop. */
const UNLIMITED = { CREDGATE_RATE_LIMIT_PER_CREDENTIAL: '0', CREDGATE_RATE_LIMIT_PER_API_KEY: '0', CREDGATE_PUBLIC_URL: 'http://credgate.test' };

/** The CLI as a child that runs while this process keeps sending requests (runCli blocks). */
function cliAsync(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(DIST, 'cli.js'), ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (status) => resolve({ status, stdout, stderr })));
}

describe('credgate master-key rotate', () => {
  let party: FbParty;
  let credentials: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const server = await cli.startServer();
    try {
      party = await fbParty(server, 'REST');
      credentials = [await party.issue(), await party.issue()];
      // Family A: a credential whose subject the issuer keeps sealed under the master key.
      await issueSealedSubject(server);
    } finally {
      await server.close();
    }
  });

  test('the new key is never taken from argv, and a wrong current key is refused without changes', () => {
    expect(runCli(['master-key', 'rotate', '--new-key', newKey.toString('hex')], cli.env)).toMatchObject({ status: 2, stderr: expect.stringMatching(/unknown option --new-key/) });
    const unset = runCli(['master-key', 'rotate', '--new-key-env', 'NOPE'], cli.env);
    expect(unset).toMatchObject({ status: 2, stderr: expect.stringMatching(/NOPE is not set/) });
    const wrong = runCli(['master-key', 'rotate', '--new-key-env', 'NEW_KEY'], { ...cli.env, CREDGATE_MASTER_KEY: randomBytes(32).toString('hex'), NEW_KEY: newKey.toString('hex') });
    // Like every command (and the service), a key that is not the database's: exit 1, one line.
    expect(wrong.status).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^credgate: .*master key does not match this database/)]);
    expect(wrong.stderr).not.toContain(newKey.toString('hex'));
  });

  test('an interrupted rotation resumes; a service with new+previous keys serves reads and writes throughout', async () => {
    // 1. A rotation that dies after its first batch (each batch commits on its own).
    const server = await cli.startServer();
    let before: { keys: number; subjects: number };
    try {
      const prisma = server.app.db.prisma;
      before = { keys: await prisma.managedKey.count(), subjects: await prisma.issuedCredential.count() };
      expect(before.keys).toBeGreaterThanOrEqual(3);
      expect(before.subjects).toBe(1);
      let batches = 0;
      const crash = { start: () => undefined, done: () => { if (++batches === 1) throw new Error('killed'); } };
      await expect(rotateMasterKey(prisma, { current: Buffer.from(oldKey(), 'hex'), next: newKey }, crash, 1)).rejects.toThrow('killed');
      const moved = await prisma.managedKey.count({ where: { kekId: deriveCustodyKek(newKey).id } });
      expect(moved).toBe(1);
      expect(await prisma.sealedSecret.findUniqueOrThrow({ where: { name: 'ledger-seed' } })).toMatchObject({ kekId: deriveCustodyKek(newKey).id });
      // Still the old key's database: the check moves only at the very end.
      expect((await prisma.masterKeyCheck.findFirstOrThrow()).kekId).toBe(deriveCustodyKek(Buffer.from(oldKey(), 'hex')).id);
    } finally {
      await server.close();
    }

    // 2. Every instance restarted with the new key and the old one as previous: it starts mid-rotation.
    const svc = await startService({ ...cli.env, ...UNLIMITED, CREDGATE_MASTER_KEY: newKey.toString('hex'), CREDGATE_MASTER_KEY_PREVIOUS: oldKey() });
    const t = restFamilyB({ baseUrl: svc.url } as TestServer);
    try {
      let stop = false;
      const served: boolean[] = [];
      const failures: unknown[] = [];
      const reads = (async () => {
        while (!stop) {
          const v = await t.verify(party.keys.verifier, credentials[served.length % 2]!);
          served.push(v.ok && v.data.verified);
          if (!(v.ok && v.data.verified)) failures.push(v);
        }
      })();
      // 3. The CLI resumes with the old key configured and the new one from an environment variable.
      const rotating = cliAsync(['master-key', 'rotate', '--new-key-env', 'NEW_KEY', '--batch-size', '1'], { ...cli.env, NEW_KEY: newKey.toString('hex') });
      // A write during the rotation: issuing opens the issuer's key (old or new envelope) and signs.
      const during = unwrap(await t.issue(party.keys.issuer, { templateId: party.template['templateId'], credentialSubject: { name: 'Ada', birthDate: '1985-01-01', employeeNo: 9 }, holder: party.holder.did }));
      const r = await rotating;
      stop = true;
      await reads;
      expect(r.stderr).not.toContain(newKey.toString('hex'));
      expect(r.status).toBe(0);
      const result = JSON.parse(r.stdout) as { rotated: boolean; managedKeys: number; sealedSubjects: number; checkReplaced: boolean; ledgerSeedStored: boolean };
      // The interrupted run had already stored the ledger seed under the new key.
      expect(result).toMatchObject({ rotated: true, checkReplaced: true, ledgerSeedStored: false, sealedSubjects: 1 });
      expect(result.managedKeys).toBe(before.keys - 1);
      expect(r.stderr).toMatch(/managed private keys: 100%/);
      expect(served.length).toBeGreaterThan(0);
      expect(failures).toEqual([]);
      credentials.push(during);
      expect(unwrap(await t.verify(party.keys.verifier, during)).verified).toBe(true);
    } finally {
      await svc.stop();
    }

    // 4. Every envelope is under the new key and opens with it alone.
    const check = await cli.startServer().catch((e: unknown) => e);
    expect(String(check)).toMatch(/master key does not match/); // the harness server still has the old key
    const ring = keyringFor(newKey, false);
    const fresh = await startService({ ...cli.env, ...UNLIMITED, CREDGATE_MASTER_KEY: newKey.toString('hex') });
    try {
      const t2 = restFamilyB({ baseUrl: fresh.url } as TestServer);
      // Signs (opens the issuer's re-sealed key) and verifies what was issued before and during.
      const after = unwrap(await t2.issue(party.keys.issuer, { templateId: party.template['templateId'], credentialSubject: { name: 'Bo', birthDate: '1970-02-02', employeeNo: 3 }, holder: party.holder.did }));
      for (const c of [...credentials, after]) expect(unwrap(await t2.verify(party.keys.verifier, c)).verified).toBe(true);
    } finally {
      await fresh.stop();
    }
    const db = await openDatabase({ kind: 'postgres', url: cli.env['DATABASE_URL']! });
    try {
      for (const k of await db.prisma.managedKey.findMany()) {
        expect(k.kekId).toBe(ring.sealing.id);
        openManagedKey(ring, k).fill(0);
      }
      // Outside a rotation's own transaction the key check stays immutable.
      await expect(db.prisma.masterKeyCheck.updateMany({ data: { kekId: 'forged' } })).rejects.toThrow(/immutable/);
      await expect(db.prisma.masterKeyCheck.deleteMany()).rejects.toThrow(/immutable/);
      for (const c of await db.prisma.issuedCredential.findMany()) {
        expect(kekIdOf(c.sealedSubject)).toBe(ring.sealing.id);
        expect(JSON.parse(Buffer.from(new EnvelopeSecretBox(ring).open(c.sealedSubject, sealedSubjectContext(c.id))).toString('utf8'))).toMatchObject({ v: 3 });
      }
    } finally {
      await db.close();
    }

    // 5. The old key alone is refused at start-up; a second run changes nothing.
    const old = runMain({ ...cli.env, PORT: '0' });
    expect(old.status).not.toBe(0);
    expect(old.stderr).toMatch(/master key does not match this database/);
    const again = runCli(['master-key', 'rotate', '--new-key-env', 'NEW_KEY'], { ...cli.env, CREDGATE_MASTER_KEY: newKey.toString('hex'), NEW_KEY: newKey.toString('hex') });
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ managedKeys: 0, sealedSubjects: 0, checkReplaced: false, ledgerSeedStored: false });
  });

  test('the ledger keeps its signing key across the rotation', () => {
    const r = runCli(['ledger', 'verify'], { ...cli.env, CREDGATE_MASTER_KEY: newKey.toString('hex') });
    expect(r.stdout).toContain('"ok":true');
    expect(r.status).toBe(0);
  });

  test('embedded database keyed by its data folder: the new key from stdin replaces master.key', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'credgate-rotate-'));
    try {
      const env = { CREDGATE_DATA_DIR: dataDir };
      expect(runCli(['tenant', 'create', 'acme'], env).status).toBe(0);
      const file = path.join(dataDir, 'master.key');
      const first = readFileSync(file, 'utf8');
      const next = randomBytes(32);
      const r = spawnSync(process.execPath, [path.join(DIST, 'cli.js'), 'master-key', 'rotate'], { cwd: ROOT, env: cleanEnv(env), input: `${next.toString('base64')}\n`, encoding: 'utf8', timeout: 60_000 });
      expect(r.stderr).toMatch(/master\.key now holds the new key/);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ rotated: true, checkReplaced: true, kekId: deriveCustodyKek(next).id });
      expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(next)).toBe(true);
      expect(readFileSync(`${file}.previous`, 'utf8')).toBe(first);
      expect(statSync(file).mode & 0o077).toBe(0);
      // The folder opens with its new key; the old one, given explicitly, is refused.
      expect(runCli(['tenant', 'list'], env).stdout).toContain('"slug":"acme"');
      const old = runCli(['tenant', 'list'], { ...env, CREDGATE_MASTER_KEY: Buffer.from(first.trim(), 'base64').toString('hex') });
      expect(old.status).toBe(1);
      expect(old.stderr).toMatch(/master key does not match this database/);
      // Nothing on stdin: refused, nothing changed.
      const empty = spawnSync(process.execPath, [path.join(DIST, 'cli.js'), 'master-key', 'rotate'], { cwd: ROOT, env: cleanEnv(env), input: '', encoding: 'utf8', timeout: 60_000 });
      expect(empty.status).toBe(2);
      expect(empty.stderr).toMatch(/stdin was empty/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
