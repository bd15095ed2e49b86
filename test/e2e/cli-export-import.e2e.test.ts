import { createPublicKey, type JsonWebKey, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliDatabase } from '../support/cli-database';
import { TEST_DB_KIND } from '../support/test-db';
import { issueSealedSubject } from '../support/cli-fixtures';
import { unwrap } from '../support/family-a-fixtures';
import { type FbParty, fbParty, fbTransports } from '../support/family-b-fixtures';
import { runCli } from '../support/process';
import { logVerifierKey } from '../support/witness-process';

const source = cliDatabase(TEST_DB_KIND);
const target = cliDatabase(TEST_DB_KIND);
const PASS = { ARCHIVE_PASS: `correct horse ${randomBytes(4).toString('hex')}` };
/** The CLI reads the service's configuration: the in-process servers sign heads as credgate.test. */
const PUBLIC_URL = { CREDGATE_PUBLIC_URL: 'http://credgate.test' };
/** The source deployment's log key, as its operator hands it to the importer (not read from the archive). */
const sourceLogKey = (): string => logVerifierKey(Buffer.from(source.env['CREDGATE_MASTER_KEY']!, 'hex'));

describe('credgate export / import', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'credgate-archive-'));
  const archive = path.join(dir, 'tenant.cgarchive');
  let party: FbParty;
  let tenant = '';
  let credential: Record<string, unknown>;
  let privateKeyHexes: string[] = [];
  /** The tenant's OpenID4VC issuer key (issue 21): it moves with the tenant. */
  let oid4vcJwk: JsonWebKey;

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const server = await source.startServer();
    try {
      party = await fbParty(server, 'REST');
      tenant = (await server.app.db.sql.query<{ slug: string }>('SELECT t.slug FROM tenants t JOIN vc_templates v ON v.tenant_id = t.id LIMIT 1'))[0]!.slug;
      credential = await party.issue();
      // The same tenant's Family A side: its issuer DID and a credential with a sealed subject.
      await issueSealedSubject(server, tenant);
      privateKeyHexes = [party.issuer.privateKey, party.holder.privateKey];
      const tenantId = (await server.app.db.sql.query<{ id: string }>('SELECT id FROM tenants WHERE slug = $1', [tenant]))[0]!.id;
      oid4vcJwk = (await server.app.services.oid4vcKeys.signerFor(tenantId)).publicJwk;
      const row = await server.app.db.prisma.oid4vcKey.findFirstOrThrow({ where: { tenantId } });
      privateKeyHexes.push(await server.app.custody.use(tenantId, row.managedKeyId, (sk) => Buffer.from(sk).toString('hex')));
    } finally {
      await server.close();
    }
  });

  test('export writes a JSON-lines archive with no private key in plaintext', () => {
    const r = runCli(['export', '--tenant', tenant, '--out', archive, '--passphrase-env', 'ARCHIVE_PASS'], { ...source.env, ...PASS, ...PUBLIC_URL });
    expect(r.stderr).toMatch(/export .*: 100%/);
    expect(r.status).toBe(0);
    const result = JSON.parse(r.stdout) as { rows: Record<string, number>; ledgerVerifierKey: string };
    // The key the importer must be given by another channel than the archive.
    expect(result.ledgerVerifierKey).toBe(sourceLogKey());
    expect(r.stderr).toContain(`--source-log-key ${sourceLogKey()}`);
    expect(result.rows).toMatchObject({ tenants: 1, dids: expect.any(Number), managed_keys: expect.any(Number), credentials: 1, issued_credentials: 1, vc_templates: 1, status_lists: 1 });
    expect(result.rows['managed_keys']).toBeGreaterThanOrEqual(3);
    expect(result.rows['ledger_leaves']).toBeGreaterThan(0);
    expect(result.rows['api_keys']).toBeGreaterThanOrEqual(5);
    expect(result.rows['oid4vc_keys']).toBe(1);
    const text = readFileSync(archive, 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ format: 'credgate-tenant-archive', version: 2, tenant, kdf: { name: 'scrypt' } });
    expect(lines.at(-1)).toMatchObject({ end: true, lines: lines.length - 1, mac: expect.stringMatching(/^[0-9a-f]{64}$/) });
    for (const hex of privateKeyHexes) {
      expect(text).not.toContain(hex);
      expect(text).not.toContain(Buffer.from(hex, 'hex').toString('base64'));
    }
    // The Family A subject copy is an envelope under the passphrase key, not the service's.
    const issued = lines.find((l) => l['table'] === 'issued_credentials')!['row'] as Record<string, string>;
    const sealed = Buffer.from(issued['sealed_subject']!, 'base64');
    expect(sealed.subarray(0, 4).toString()).toBe('CGE1');
    expect(sealed.toString('utf8')).not.toContain('Alice');
    // Never overwrites.
    expect(runCli(['export', '--tenant', tenant, '--out', archive, '--passphrase-env', 'ARCHIVE_PASS'], { ...source.env, ...PASS }).status).not.toBe(0);
  });

  test('a tampered, truncated or wrongly unlocked archive is refused and changes nothing', async () => {
    const good = readFileSync(archive, 'utf8');
    const lines = good.trim().split('\n');
    const tamperedFile = path.join(dir, 'tampered.cgarchive');
    const cases: [string, string, Record<string, string>][] = [
      ['a changed row', [lines[0], lines[1]!.replace(/"name":"[^"]*"/, '"name":"Mallory"'), ...lines.slice(2)].join('\n') + '\n', PASS],
      ['a dropped row', [...lines.slice(0, 3), ...lines.slice(4)].join('\n') + '\n', PASS],
      ['no end line', lines.slice(0, -1).join('\n') + '\n', PASS],
      ['another passphrase', good, { ARCHIVE_PASS: 'not the passphrase at all' }],
    ];
    expect(cases[0]![1]).not.toBe(good);
    for (const [what, content, env] of cases) {
      writeFileSync(tamperedFile, content);
      const r = runCli(['import', '--in', tamperedFile, '--passphrase-env', 'ARCHIVE_PASS', '--source-log-key', sourceLogKey()], { ...target.env, ...env });
      expect({ what, status: r.status }).toEqual({ what, status: 2 });
      expect(r.stderr).toMatch(/integrity check|truncated|does not open|wrong passphrase/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const server = await target.startServer();
    try {
      expect(await server.app.db.sql.query('SELECT 1 FROM tenants WHERE slug = $1', [tenant])).toEqual([]);
      expect(await server.app.db.sql.query('SELECT 1 FROM managed_keys')).toEqual([]);
    } finally {
      await server.close();
    }
  });

  test('import into another database (another master key) reproduces the tenant: credentials verify, ledger verifies', async () => {
    const r = runCli(['import', '--in', archive, '--passphrase-env', 'ARCHIVE_PASS', '--source-log-key', sourceLogKey()], { ...target.env, ...PASS });
    expect(r.stderr).toMatch(/import .*: 100%/);
    expect(r.status).toBe(0);
    const imported = JSON.parse(r.stdout) as { ledger: { logs: number; leaves: number; heads: number } };
    expect(imported).toMatchObject({ imported: true, tenant });
    // Every log was recomputed from its leaves before its head was signed again.
    expect(imported.ledger.logs).toBeGreaterThan(0);
    expect(imported.ledger.heads).toBeGreaterThan(0);
    expect(imported.ledger.leaves).toBeGreaterThan(0);
    const v = runCli(['ledger', 'verify'], target.env);
    expect(v.stdout).toContain('"ok":true');
    expect(v.status).toBe(0);

    const server = await target.startServer();
    try {
      for (const name of ['REST', 'GraphQL']) {
        const { t } = fbTransports(server, name);
        // The exported API keys (hashes) still authenticate; the credential verifies, anchor and status included.
        const verified = unwrap(await t.verify(party.keys.verifier, credential));
        expect({ name, verified: verified.verified, failed: verified.checks.filter((c) => !c.ok) }).toEqual({ name, verified: true, failed: [] });
        // The issuer's key was re-sealed under this database's master key: issuing signs with it.
        const again = unwrap(await t.issue(party.keys.issuer, { templateId: party.template['templateId'], credentialSubject: { name: 'Ada', birthDate: '1985-01-01', employeeNo: 9 }, holder: party.holder.did }));
        expect(unwrap(await t.verify(party.keys.verifier, again)).verified).toBe(true);
      }
      // The OpenID4VC key came along (re-sealed here): same key, now certified by this deployment's CA.
      const tenantId = (await server.app.db.sql.query<{ id: string }>('SELECT id FROM tenants WHERE slug = $1', [tenant]))[0]!.id;
      const signer = await server.app.services.oid4vcKeys.signerFor(tenantId);
      expect(signer.publicJwk).toEqual(oid4vcJwk);
      const anchors = await server.app.services.oid4vcKeys.trustAnchors();
      expect(signer.x5c![1]).toBe(Buffer.from(anchors.at(-1)!).toString('base64'));
      const data = Buffer.from('moved');
      expect(verify('sha256', data, { key: createPublicKey({ key: signer.publicJwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, await signer.sign(data))).toBe(true);
    } finally {
      await server.close();
    }
    // A second import of the same tenant is refused.
    const twice = runCli(['import', '--in', archive, '--passphrase-env', 'ARCHIVE_PASS', '--source-log-key', sourceLogKey()], { ...target.env, ...PASS });
    expect(twice.status).toBe(2);
    expect(twice.stderr).toMatch(/already exists/);
  });

  test('usage: --help, and the passphrase only from the environment', () => {
    expect(runCli(['export', '--help'], {})).toMatchObject({ status: 0, stdout: expect.stringMatching(/--passphrase-env NAME/) });
    expect(runCli(['import', '--help'], {})).toMatchObject({ status: 0, stdout: expect.stringMatching(/usage: credgate import --in FILE .*--source-log-key VKEY/) });
    // The exporter's log key is never optional (there is no mode trusting the archive's own).
    expect(runCli(['import', '--in', archive, '--passphrase-env', 'ARCHIVE_PASS'], { ...target.env, ...PASS })).toMatchObject({ status: 2, stderr: expect.stringMatching(/^credgate: --source-log-key is required/) });
    expect(runCli(['import', '--in', archive, '--passphrase-env', 'ARCHIVE_PASS', '--source-log-key', 'nope'], { ...target.env, ...PASS })).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/^credgate: --source-log-key is not a log verifier key/),
    });
    expect(runCli(['export', '--tenant', tenant, '--out', path.join(dir, 'x'), '--passphrase', 'p'], source.env)).toMatchObject({ status: 2, stderr: expect.stringMatching(/unknown option --passphrase/) });
    expect(runCli(['export', '--tenant', tenant, '--out', path.join(dir, 'x'), '--passphrase-env', 'UNSET_VAR'], source.env)).toMatchObject({ status: 2, stderr: expect.stringMatching(/UNSET_VAR is not set/) });
    expect(runCli(['export', '--tenant', 'no-such-tenant', '--out', path.join(dir, 'y'), '--passphrase-env', 'ARCHIVE_PASS'], { ...source.env, ...PASS })).toMatchObject({ status: 2, stderr: expect.stringMatching(/tenant no-such-tenant does not exist/) });
  });
});
