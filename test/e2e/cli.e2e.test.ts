import { request } from '../support/http';
import { runCli } from '../support/process';
import { cliDatabase } from '../support/cli-database';

const cli = cliDatabase();

describe('credgate CLI', () => {
  test('db migrate, tenant create/list', () => {
    expect(runCli(['db', 'migrate'], cli.env)).toMatchObject({ status: 0, stdout: 'database is migrated\n' });
    const t = runCli(['tenant', 'create', 'initech', '--name', 'Initech'], cli.env);
    expect(t.status).toBe(0);
    expect(JSON.parse(t.stdout)).toMatchObject({ slug: 'initech', name: 'Initech' });
    expect(runCli(['tenant', 'list'], cli.env).stdout).toContain('"slug":"initech"');
  });

  test('api-key create prints the key once; list never shows secrets; revoke makes it 401', async () => {
    // Keys are created in existing tenants only (cli-usage.e2e.test.ts: a typo is refused).
    expect(runCli(['tenant', 'create', 'acme'], cli.env).status).toBe(0);
    const created = runCli(['api-key', 'create', '--tenant', 'acme', '--scopes', 'issuer,verifier', '--name', 'ci'], cli.env);
    expect(created.status).toBe(0);
    expect(created.stderr).toMatch(/shown only once/);
    const out = JSON.parse(created.stdout) as { key: string; id: string; scopes: string[]; tenant: string };
    expect(out).toMatchObject({ tenant: 'acme', scopes: ['issuer', 'verifier'], name: 'ci' });
    expect(out.key).toMatch(/^cgk_/);

    const rows = await (async () => {
      const server = await cli.startServer();
      try {
        const ok = await request(server.baseUrl, 'GET', '/generate-keypair', { headers: { 'x-api-key': out.key } });
        expect(ok.status).toBe(200);
        // Stored only as a hash.
        const row = await server.app.db.prisma.apiKey.findUniqueOrThrow({ where: { id: out.id } });
        // The secret is everything after `cgk_<id>_` (base64url, so it may itself hold '_').
        expect(row.secretHash).not.toContain(out.key.split('_').slice(2).join('_'));
        expect(JSON.stringify(row)).not.toContain(out.key);
        return row;
      } finally {
        await server.close();
      }
    })();
    expect(rows.scopes).toEqual(['issuer', 'verifier']);

    const list = runCli(['api-key', 'list', '--tenant', 'acme'], cli.env);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain(out.id);
    expect(list.stdout).not.toContain(out.key);
    expect(list.stdout).not.toContain(rows.secretHash);

    expect(runCli(['api-key', 'revoke', '--tenant', 'acme', '--id', out.id], cli.env)).toMatchObject({ status: 0, stdout: 'revoked\n' });
    const server = await cli.startServer();
    try {
      expect((await request(server.baseUrl, 'GET', '/generate-keypair', { headers: { 'x-api-key': out.key } })).status).toBe(401);
    } finally {
      await server.close();
    }
    expect(runCli(['api-key', 'revoke', '--tenant', 'acme', '--id', out.id], cli.env).status).toBe(2);
  });

  test('mistakes exit non-zero with a message, not a stack', () => {
    const bad = runCli(['api-key', 'create', '--tenant', 'acme', '--scopes', 'root'], cli.env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^credgate: scopes must be/);
    expect(bad.stderr).not.toMatch(/\bat /);
    const usage = runCli(['frobnicate'], cli.env);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/usage: credgate/);
    expect(runCli(['api-key', 'list', '--tenant', 'nobody'], cli.env).status).toBe(2);
  });
});
