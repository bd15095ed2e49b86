/**
 * `api-key create --holder-did`: the operator's way to issue a holder-bound key. The key then
 * reads its holder's credentials only (the full attack matrix is in holder-scopes.e2e.test.ts).
 */
import { request } from '../support/http';
import { runCli } from '../support/process';
import { cliDatabase } from '../support/cli-database';

const cli = cliDatabase();

test('api-key create --holder-did binds the key; refusals are one-line errors with exit code 2', async () => {
  // The holder's DID must exist in the tenant first: provision it with an issuer key.
  for (const slug of ['wallets', 'other']) expect(runCli(['tenant', 'create', slug], cli.env).status).toBe(0);
  const issuer = JSON.parse(runCli(['api-key', 'create', '--tenant', 'wallets', '--scopes', 'issuer'], cli.env).stdout) as { key: string };
  const server = await cli.startServer();
  let did: string;
  try {
    const kp = await request(server.baseUrl, 'GET', '/generate-keypair', { headers: { 'x-api-key': issuer.key } });
    const doc = await request(server.baseUrl, 'POST', '/dids', { headers: { 'x-api-key': issuer.key }, body: { method: 'credgate', publicKey: kp.json.publicKey } });
    did = String(doc.json.id);
  } finally {
    await server.close();
  }
  const plain = did.slice(0, did.lastIndexOf(':'));

  const created = runCli(['api-key', 'create', '--tenant', 'wallets', '--scopes', 'holder', '--holder-did', did], cli.env);
  expect(created.status).toBe(0);
  const out = JSON.parse(created.stdout) as { id: string; holderDid: string; scopes: string[] };
  expect(out).toMatchObject({ scopes: ['holder'], holderDid: plain });
  expect(runCli(['api-key', 'list', '--tenant', 'wallets'], cli.env).stdout).toContain(`"holderDid":"${plain}"`);

  const wrongScope = runCli(['api-key', 'create', '--tenant', 'wallets', '--scopes', 'issuer', '--holder-did', did], cli.env);
  expect(wrongScope.status).toBe(2);
  expect(wrongScope.stderr).toMatch(/^credgate: a holder-bound key needs the holder scope/);
  const unknown = runCli(['api-key', 'create', '--tenant', 'other', '--scopes', 'holder', '--holder-did', plain], cli.env);
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toMatch(/^credgate: holder DID .* is not a DID of tenant other\n$/);
});
