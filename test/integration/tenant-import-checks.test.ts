/**
 * The checks `credgate import` runs in its transaction before committing, on the database the
 * suite runs on (PostgreSQL, or PGlite with CREDGATE_TEST_DB=pglite, like the CLI suites; the
 * reference check reads the catalogue). A real tenant passes them; a row made to
 * point into another tenant does not. Each change is made in a transaction that is rolled back.
 */
import { ArchiveError } from '../../src/cli/archive-format';
import { checkImportedLogs } from '../../src/cli/archive-ledger';
import { checkReferences } from '../../src/cli/archive-references';
import type { SqlExecutor } from '../../src/db/sql-executor';
import { fbParty } from '../support/family-b-fixtures';
import { type TestServer, startTestServer } from '../support/harness';

const silent = { start: () => undefined, done: () => undefined, finish: () => undefined };
const ROLLBACK = new Error('roll back');

let server: TestServer;
let mine: { tenantId: string; credentialId: string; didId: string };
let theirs: { statusListId: string; logId: string };

/** Runs `fn` in a transaction that is always rolled back, returning what it returned or threw. */
async function inRolledBack<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const out: { value?: T; error?: unknown } = {};
  await server.app.db.sql
    .transaction(async (tx) => {
      try {
        out.value = await fn(tx);
      } catch (e) {
        out.error = e;
      }
      throw ROLLBACK;
    })
    .catch((e: unknown) => {
      if (e !== ROLLBACK) throw e;
    });
  return out;
}

beforeAll(async () => {
  server = await startTestServer();
  const a = await fbParty(server, 'REST');
  await a.issue();
  const b = await fbParty(server, 'REST');
  await b.issue();
  const q = server.app.db.sql;
  const [cred] = await q.query<{ tenant_id: string; id: string }>('SELECT c.tenant_id, c.id FROM credentials c JOIN dids d ON d.id = c.issuer_did_id WHERE d.did = $1', [a.issuer.did]);
  const [did] = await q.query<{ id: string }>('SELECT id FROM dids WHERE did = $1', [a.issuer.did]);
  const [list] = await q.query<{ id: string }>('SELECT s.id FROM status_lists s JOIN dids d ON d.id = s.issuer_did_id WHERE d.did = $1', [b.issuer.did]);
  const [log] = await q.query<{ template_topic_id: string }>('SELECT template_topic_id FROM dids WHERE did = $1', [b.issuer.did]);
  mine = { tenantId: cred!.tenant_id, credentialId: cred!.id, didId: did!.id };
  theirs = { statusListId: list!.id, logId: log!.template_topic_id };
});
afterAll(async () => {
  await server.close();
});

test('a tenant as the service wrote it passes: its references stay inside it, its logs recompute', async () => {
  const r = await inRolledBack(async (tx) => {
    await checkReferences(tx, mine.tenantId);
    return checkImportedLogs(tx, mine.tenantId, new Map(), [], { ledgerSeed: new Uint8Array(32), ledgerOrigin: 'x.test/ledger' }, silent, async () => undefined);
  });
  expect(r.error).toBeUndefined();
  expect(r.value).toMatchObject({ heads: 0 });
  expect(r.value!.logs).toBeGreaterThan(0);
  expect(r.value!.leaves).toBeGreaterThan(0);
});

test.each([
  ["a credential naming another tenant's status list", 'UPDATE credentials SET status_list_id = $2 WHERE id = $1', () => [mine.credentialId, theirs.statusListId], /credentials .*status_list_id .* names a status_lists row that is not the imported tenant's/],
  ["a DID whose credential log is another tenant's", 'UPDATE dids SET topic_id = $2 WHERE id = $1', () => [mine.didId, theirs.logId], /dids .*topic_id \(0\.0\.\d+\) names a ledger_logs row that is not the imported tenant's/],
] as const)('%s is refused', async (_what, sql, params, message) => {
  const r = await inRolledBack(async (tx) => {
    await tx.query(sql, params());
    await checkReferences(tx, mine.tenantId);
  });
  expect(r.error).toBeInstanceOf(ArchiveError);
  expect((r.error as Error).message).toMatch(message);
});
