import type { Config } from '../config';
import type { ApiKeyRepository, Clock, DidRepository, KeyCustody, TenantRepository } from '../domain/ports';
import type { SqlExecutor } from '../db/sql-executor';
import { AuthService } from './auth.service';
import { DidsService } from './dids.service';
import { HealthService } from './health.service';
import { KeysService } from './keys.service';
import { UsersService } from './users.service';

export interface Services {
  readonly auth: AuthService;
  readonly keys: KeysService;
  readonly dids: DidsService;
  readonly users: UsersService;
  readonly health: HealthService;
}

export interface ServiceDeps {
  readonly config: Config;
  readonly clock: Clock;
  readonly sql: SqlExecutor;
  readonly tenants: TenantRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly dids: DidRepository;
  readonly custody: KeyCustody;
}

/** Builds every use-case service once; both transports and the CLI share these instances. */
export function createServices(d: ServiceDeps): Services {
  const dids = new DidsService(d.dids, d.custody, { method: d.config.didMethod, network: d.config.network });
  return {
    auth: new AuthService(d.tenants, d.apiKeys, d.clock, d.config.adminApiKey),
    keys: new KeysService(d.custody),
    dids,
    users: new UsersService(dids),
    health: new HealthService(d.sql),
  };
}
