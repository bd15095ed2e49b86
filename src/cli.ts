#!/usr/bin/env node
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { createCore } from './app';
import { ConfigError, parseConfig } from './config';
import { isAppError } from './errors';
import { createLogger } from './logging/logger';
import type { Services } from './services';

const USAGE = `usage: credgate <command>
  db migrate                                             apply pending database migrations
  tenant create <slug> [--name NAME]                     create a tenant
  tenant list                                            list tenants
  api-key create --tenant SLUG --scopes a,b [--name N] [--holder-did DID]
                                                         create a key (printed once); creates the tenant if new;
                                                         --holder-did binds a holder key to one holder DID
  api-key list --tenant SLUG                             list keys (never their secrets)
  api-key revoke --tenant SLUG --id KEY_ID               revoke a key
scopes: admin, issuer, holder, verifier. Configuration comes from the same environment as the service.
The embedded database (no DATABASE_URL) is locked by the process using it: stop the server first, or use DATABASE_URL.`;

type Out = (line: string) => void;

async function run(services: Services, argv: string[], out: Out): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { tenant: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' }, id: { type: 'string' }, 'holder-did': { type: 'string' } },
  });
  const [group, action, arg] = positionals;
  const need = (v: string | undefined, flag: string): string => {
    if (!v) throw new Error(`--${flag} is required\n${USAGE}`);
    return v;
  };
  switch (`${group ?? ''} ${action ?? ''}`) {
    case 'db migrate':
      out('database is migrated');
      return;
    case 'tenant create': {
      const t = await services.auth.ensureTenant(need(arg, 'slug'), values.name);
      out(JSON.stringify({ id: t.id, slug: t.slug, name: t.name }));
      return;
    }
    case 'tenant list':
      for (const t of await services.auth.listTenants()) out(JSON.stringify({ id: t.id, slug: t.slug, name: t.name }));
      return;
    case 'api-key create': {
      const { key, apiKey } = await services.auth.createApiKey({
        tenant: need(values.tenant, 'tenant'),
        scopes: need(values.scopes, 'scopes').split(','),
        ...(values.name ? { name: values.name } : {}),
        ...(values['holder-did'] !== undefined ? { holderDid: values['holder-did'] } : {}),
      });
      out(JSON.stringify({ ...apiKey, key }));
      process.stderr.write('Store this key now: it is shown only once.\n');
      return;
    }
    case 'api-key list':
      for (const k of await services.auth.listApiKeys(need(values.tenant, 'tenant'))) out(JSON.stringify(k));
      return;
    case 'api-key revoke':
      await services.auth.revokeApiKey(need(values.tenant, 'tenant'), need(values.id, 'id'));
      out('revoked');
      return;
    default:
      throw new Error(USAGE);
  }
}

async function main(): Promise<number> {
  const config = parseConfig(process.env);
  const { db, services } = await createCore({ config, logger: createLogger('warn') });
  try {
    await run(services, process.argv.slice(2), (line) => process.stdout.write(line + '\n'));
    return 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    const msg = e instanceof ConfigError ? `invalid configuration: ${e.message}` : isAppError(e) ? e.message : e instanceof Error ? e.message : String(e);
    process.stderr.write(`credgate: ${msg}\n`);
    process.exit(isAppError(e) || e instanceof ConfigError ? 2 : 1);
  },
);
