/**
 * `credgate import` against archives forged by someone who holds the passphrase (so the MAC is
 * valid): a rewritten log signed with the forger's key and that key named in the header, a leaf
 * changed under a kept head, rows pointing into another tenant of the target database. Each is
 * refused with exit 2 and a one-line reason, and the target database is left exactly as it was;
 * the honest archive still imports and its credential verifies (REST and GraphQL).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bytesToBase64 } from '../../src/domain/encoding';
import { publicKeyOf } from '../../src/domain/merkle';
import { cliDatabase } from '../support/cli-database';
import { TEST_DB_KIND } from '../support/test-db';
import { unwrap } from '../support/family-a-fixtures';
import { type FbParty, fbParty, fbTransports } from '../support/family-b-fixtures';
import { request } from '../support/http';
import { runCli } from '../support/process';
import { type EditableArchive, copyArchive, readArchive, rebuildLog, resignHead, rowsOf, writeArchive } from '../support/tenant-archive';
import { logVerifierKey } from '../support/witness-process';

const source = cliDatabase(TEST_DB_KIND);
const target = cliDatabase(TEST_DB_KIND);
const PASSPHRASE = `correct horse ${randomBytes(4).toString('hex')}`;
const PASS = { ARCHIVE_PASS: PASSPHRASE };
const PUBLIC_URL = { CREDGATE_PUBLIC_URL: 'http://credgate.test' };
/** The forger signs with a key of their own under the exporter's key name, so only the key differs. */
const FORGER = { name: 'credgate.test/ledger', seed: new Uint8Array(randomBytes(32)) };

const sourceLogKey = (): string => logVerifierKey(Buffer.from(source.env['CREDGATE_MASTER_KEY']!, 'hex'));

/** Everything an import could write or a revocation could flip, to show a refused import changed nothing. */
const SNAPSHOT_SQL = `SELECT json_build_object(
  'tenants', (SELECT json_agg(t ORDER BY t.id) FROM tenants t),
  'dids', (SELECT count(*) FROM dids), 'managed_keys', (SELECT count(*) FROM managed_keys), 'api_keys', (SELECT count(*) FROM api_keys),
  'ledger_logs', (SELECT json_agg(l ORDER BY l.seq) FROM ledger_logs l), 'ledger_leaves', (SELECT count(*) FROM ledger_leaves),
  'ledger_nodes', (SELECT count(*) FROM ledger_nodes), 'ledger_heads', (SELECT json_agg(h ORDER BY h.log_seq) FROM ledger_heads h),
  'credentials', (SELECT json_agg(c.id ORDER BY c.id) FROM credentials c), 'issued_credentials', (SELECT count(*) FROM issued_credentials),
  'vc_templates', (SELECT count(*) FROM vc_templates), 'credential_schemas', (SELECT count(*) FROM credential_schemas),
  'status_lists', (SELECT json_agg(json_build_object('id', s.id, 'bits', encode(s.bits, 'hex'), 'version', s.version) ORDER BY s.id) FROM status_lists s),
  'vc_issuers', (SELECT json_agg(json_build_object('id', i.id, 'default', i.default_tenant_id) ORDER BY i.id) FROM vc_issuers i),
  'vc_status_lists', (SELECT count(*) FROM vc_status_lists), 'idempotency_keys', (SELECT count(*) FROM idempotency_keys),
  'anchor_outbox', (SELECT count(*) FROM anchor_outbox), 'ledger_cosignatures', (SELECT count(*) FROM ledger_cosignatures)
) AS snapshot`;

describe('credgate import refuses forged archives atomically', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'credgate-import-attacks-'));
  const honestFile = path.join(dir, 'honest.cgarchive');
  let party: FbParty;
  let tenant = '';
  let credential: Record<string, unknown>;
  let honest: EditableArchive;
  /** The issuer's credential log (its DID's topic): the log the attacks rewrite. */
  let topicSeq = '';
  /** Another tenant of the target database: its status list and logs are what a crafted row reaches for. */
  let victim: { statusListId: string; usedIndexes: number[]; templateTopicId: string; tenantId: string; apiKeyId: string };
  let before: unknown;

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(async () => {
    const server = await source.startServer();
    try {
      // Log ids are kept on import: a first tenant takes the source's low log numbers, which the target's own tenant uses.
      await fbParty(server, 'REST');
      party = await fbParty(server, 'REST');
      tenant = (await server.app.db.sql.query<{ slug: string }>('SELECT t.slug FROM tenants t JOIN dids d ON d.tenant_id = t.id WHERE d.did = $1', [party.issuer.did]))[0]!.slug;
      credential = await party.issue();
      // The second credential with an Idempotency-Key, and the tenant's default VC-API issuer (made by its
      // first VC-API use): rows of tables archive version 2 added, for the attacks on them.
      const body = { templateId: party.template['templateId'], credentialSubject: { name: 'Ada', birthDate: '1985-01-01', employeeNo: 9 }, holder: party.holder.did };
      expect((await request(server.baseUrl, 'POST', '/credentials', { headers: { 'X-API-Key': party.keys.issuer, 'Idempotency-Key': 'k1' }, body })).status).toBe(201);
      expect((await request(server.baseUrl, 'GET', '/vc-api/issuers', { headers: { 'X-API-Key': party.keys.issuer } })).status).toBe(200);
    } finally {
      await server.close();
    }
    const victimServer = await target.startServer();
    try {
      const v = await fbParty(victimServer, 'REST');
      await v.issue();
      const [list] = await victimServer.app.db.sql.query<{ id: string }>('SELECT id FROM status_lists');
      const used = await victimServer.app.db.sql.query<{ status_index: number }>('SELECT status_index FROM credentials');
      const [did] = await victimServer.app.db.sql.query<{ template_topic_id: string }>('SELECT template_topic_id FROM dids WHERE did = $1', [v.issuer.did]);
      const [owner] = await victimServer.app.db.sql.query<{ tenant_id: string }>('SELECT tenant_id FROM dids WHERE did = $1', [v.issuer.did]);
      const [key] = await victimServer.app.db.sql.query<{ id: string }>('SELECT id FROM api_keys WHERE tenant_id = $1 LIMIT 1', [owner!.tenant_id]);
      victim = { statusListId: list!.id, usedIndexes: used.map((u) => u.status_index), templateTopicId: did!.template_topic_id, tenantId: owner!.tenant_id, apiKeyId: key!.id };
      before = (await victimServer.app.db.sql.query<{ snapshot: unknown }>(SNAPSHOT_SQL))[0]!.snapshot;
    } finally {
      await victimServer.close();
    }
    const r = runCli(['export', '--tenant', tenant, '--out', honestFile, '--passphrase-env', 'ARCHIVE_PASS'], { ...source.env, ...PASS, ...PUBLIC_URL });
    expect(r.status).toBe(0);
    honest = readArchive(honestFile);
    const issuerDid = rowsOf(honest, 'dids').find((d) => d['did'] === party.issuer.did)!;
    topicSeq = String(issuerDid['topic_id']).replace(/^0\.0\./, '');
    // The attacks need a log with two credentials in it and a signed head over them.
    expect(rowsOf(honest, 'ledger_leaves').filter((l) => String(l['log_seq']) === topicSeq)).toHaveLength(2);
    expect(rowsOf(honest, 'ledger_heads').find((h) => String(h['log_seq']) === topicSeq)).toMatchObject({ tree_size: 2 });
  });

  const importFile = (file: string, key = sourceLogKey()) => runCli(['import', '--in', file, '--passphrase-env', 'ARCHIVE_PASS', '--source-log-key', key], { ...target.env, ...PASS });

  /** The first leaf of the credential log now anchors another document's hash. */
  const changeLeaf = (a: EditableArchive): void => {
    const leaf = rowsOf(a, 'ledger_leaves').find((l) => String(l['log_seq']) === topicSeq && Number(l['index']) === 0)!;
    leaf['entry_hash'] = `\\x${randomBytes(32).toString('hex')}`;
  };

  const attacks: [string, (a: EditableArchive) => Promise<void>, RegExp][] = [
    [
      'a rewritten log signed with the forger\'s key, that key named in the header',
      async (a) => {
        changeLeaf(a);
        resignHead(a, topicSeq, await rebuildLog(a, topicSeq, 2), FORGER);
        a.header.ledgerPublicKey = bytesToBase64(publicKeyOf(FORGER.seed));
      },
      /names another log key than --source-log-key/,
    ],
    [
      'a rewritten log signed with the forger\'s key, the header left alone',
      async (a) => {
        changeLeaf(a);
        resignHead(a, topicSeq, await rebuildLog(a, topicSeq, 2), FORGER);
      },
      /signed head of log 0\.0\.\d+ does not verify under --source-log-key/,
    ],
    [
      'a leaf changed, its leaf hash and nodes recomputed, the exporter\'s signed head kept',
      async (a) => {
        changeLeaf(a);
        await rebuildLog(a, topicSeq, 2);
      },
      /does not recompute: log 0\.0\.\d+: the signed head of size 2 states a root its leaves do not give/,
    ],
    [
      'a leaf changed, everything else kept',
      async (a) => changeLeaf(a),
      /does not recompute: log 0\.0\.\d+: leaf 0/,
    ],
    [
      "a credential row naming another tenant's status list",
      async (a) => {
        const row = rowsOf(a, 'credentials')[0]!;
        row['status_list_id'] = victim.statusListId;
        row['status_index'] = [0, 1, 2].find((i) => !victim.usedIndexes.includes(i));
      },
      /credentials [^ ]+: status_list_id \([0-9a-f-]+\) names a status_lists row that is not the imported tenant's/,
    ],
    [
      "a DID whose credential log is another tenant's log",
      async (a) => {
        rowsOf(a, 'dids').find((d) => d['did'] === party.issuer.did)!['topic_id'] = victim.templateTopicId;
      },
      /dids [^ ]+: topic_id \(0\.0\.\d+\) names a ledger_logs row that is not the imported tenant's/,
    ],
    [
      // The default VC-API issuer is looked up by default_tenant_id: this row would become the other tenant's default signer.
      "a VC-API issuer naming another tenant as the tenant it is the default of",
      async (a) => {
        rowsOf(a, 'vc_issuers')[0]!['default_tenant_id'] = victim.tenantId;
      },
      /vc_issuers [^ ]+: default_tenant_id \([0-9a-f-]+\) names a tenants row that is not the imported tenant's/,
    ],
    [
      "an idempotency record of another tenant's API key (its holder would be replayed this tenant's answer)",
      async (a) => {
        rowsOf(a, 'idempotency_keys')[0]!['api_key_id'] = victim.apiKeyId;
      },
      /idempotency_keys row: api_key_id \([0-9a-f-]+\) names a api_keys row that is not the imported tenant's/,
    ],
    [
      'an anchor row stating a root its leaves do not give (this deployment would publish it)',
      async (a) => {
        const row = rowsOf(a, 'anchor_outbox').find((r) => r['log_id'] === `0.0.${topicSeq}` && Number(r['tree_size']) === 2)!;
        row['root_hash'] = `\\x${randomBytes(32).toString('hex')}`;
        row['note'] = null;
      },
      /does not recompute: log 0\.0\.\d+: the anchor row of size 2 states a root its leaves do not give/,
    ],
    [
      "an anchor row whose checkpoint is not the exporter's signature over its size and root",
      async (a) => {
        const row = rowsOf(a, 'anchor_outbox').find((r) => r['log_id'] === `0.0.${topicSeq}` && Number(r['tree_size']) === 2)!;
        row['root_hash'] = `\\x${randomBytes(32).toString('hex')}`;
      },
      /the anchored checkpoint of log 0\.0\.\d+ \(size 2\) is not signed under --source-log-key/,
    ],
    [
      'a table version 2 added, in an archive that says it is of version 1',
      async (a) => {
        a.header.version = 1;
      },
      /table vc_issuers is not part of archive version 1/,
    ],
    [
      'a row of another tenant',
      async (a) => {
        rowsOf(a, 'vc_templates')[0]!['tenant_id'] = '00000000-0000-4000-8000-000000000000';
      },
      /a vc_templates row that is not of the imported tenant/,
    ],
  ];

  test.each(attacks.map(([what, edit, reason]) => ({ what, edit, reason })))('$what: refused (exit 2), nothing written', async ({ what, edit, reason }) => {
    const forged = copyArchive(honest);
    await edit(forged);
    const file = path.join(dir, `forged-${randomBytes(4).toString('hex')}.cgarchive`);
    writeArchive(file, forged, PASSPHRASE);
    const r = importFile(file);
    expect({ what, status: r.status, stdout: r.stdout }).toEqual({ what, status: 2, stdout: '' });
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(reason);
    expect(r.stderr).toMatch(/nothing was imported/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const server = await target.startServer();
    try {
      expect((await server.app.db.sql.query<{ snapshot: unknown }>(SNAPSHOT_SQL))[0]!.snapshot).toEqual(before);
    } finally {
      await server.close();
    }
  });

  test('the honest archive under a key that is not the exporter\'s is refused; under the exporter\'s it imports, recomputes and verifies', async () => {
    // The archive re-MACed unchanged: what the attacks started from passes (the edits are what is refused).
    const rewritten = path.join(dir, 'rewritten-honest.cgarchive');
    writeArchive(rewritten, copyArchive(honest), PASSPHRASE);
    const wrongKey = logVerifierKey(randomBytes(32));
    expect(importFile(rewritten, wrongKey)).toMatchObject({ status: 2, stderr: expect.stringMatching(/names another log key than --source-log-key/) });

    const r = importFile(rewritten);
    expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toMatchObject({ imported: true, tenant, ledger: { heads: rowsOf(honest, 'ledger_heads').length } });
    const v = runCli(['ledger', 'verify'], target.env);
    expect({ status: v.status, ok: v.stdout.includes('"ok":true') }).toEqual({ status: 0, ok: true });

    const server = await target.startServer();
    try {
      for (const name of ['REST', 'GraphQL']) {
        const { t } = fbTransports(server, name);
        const verified = unwrap(await t.verify(party.keys.verifier, credential));
        expect({ name, verified: verified.verified, failed: verified.checks.filter((c) => !c.ok) }).toEqual({ name, verified: true, failed: [] });
      }
    } finally {
      await server.close();
    }
  });
});
