import { AppError, isAppError } from '../errors';
import type { AuthService } from '../services/auth.service';
import type { Parsed } from './parse';

/** The commands here call only the auth service (src/cli/auth-core.ts builds just that). */
type Services = { readonly auth: AuthService };

export interface CliIo {
  /** Results, one line each (JSON where it is data), for scripts. */
  out(line: string): void;
  /** Notes for the person at the terminal; never part of the results. */
  note(line: string): void;
}

type Run = Extract<Parsed, { kind: 'run' }>;

/** A mistyped slug is an error naming it, never a new tenant. */
async function existingTenant(services: Services, slug: string): Promise<void> {
  try {
    await services.auth.requireTenant(slug);
  } catch (e) {
    if (isAppError(e) && e.code === 'NOT_FOUND') {
      throw new AppError('NOT_FOUND', `tenant ${slug} does not exist; create it first with: credgate tenant create ${slug}`);
    }
    throw e;
  }
}

/** Runs one parsed command; each calls one service method, like the HTTP adapters. */
export async function runCommand(services: Services, { command, args, values }: Run, io: CliIo): Promise<void> {
  const v = (flag: string): string => values[flag]!;
  switch (command.name) {
    case 'migrate':
    case 'db migrate':
      // Opening the core has applied the migrations already.
      io.out('database is migrated');
      return;
    case 'tenant create': {
      const t = await services.auth.ensureTenant(args[0]!, values['name']);
      io.out(JSON.stringify({ id: t.id, slug: t.slug, name: t.name }));
      return;
    }
    case 'tenant list': {
      const tenants = await services.auth.listTenants();
      for (const t of tenants) io.out(JSON.stringify({ id: t.id, slug: t.slug, name: t.name }));
      if (tenants.length === 0) io.note('no tenants yet; create one with: credgate tenant create <slug>');
      return;
    }
    case 'api-key create': {
      await existingTenant(services, v('tenant'));
      const { key, apiKey } = await services.auth.createApiKey({
        tenant: v('tenant'),
        scopes: v('scopes').split(','),
        createTenant: false,
        ...(values['name'] ? { name: values['name'] } : {}),
        ...(values['holder-did'] !== undefined ? { holderDid: values['holder-did'] } : {}),
      });
      io.out(JSON.stringify({ ...apiKey, key }));
      io.note('Store this key now: it is shown only once.');
      return;
    }
    case 'api-key list': {
      await existingTenant(services, v('tenant'));
      const keys = await services.auth.listApiKeys(v('tenant'));
      for (const k of keys) io.out(JSON.stringify(k));
      if (keys.length === 0) io.note(`no API keys in tenant ${v('tenant')}; create one with: credgate api-key create --tenant ${v('tenant')} --scopes ...`);
      return;
    }
    case 'api-key revoke':
      await existingTenant(services, v('tenant'));
      await services.auth.revokeApiKey(v('tenant'), v('id'));
      io.out('revoked');
      return;
    default:
      // The spec table and this switch are edited together; parse.ts only yields commands from it.
      throw new Error(`command ${command.name} has no implementation`);
  }
}
