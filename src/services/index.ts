import type { Config } from '../config';
import type {
  ApiKeyRepository,
  Clock,
  DidRepository,
  IssuedCredentialRepository,
  IssuerDidPointer,
  KeyCustody,
  SchemaRepository,
  SecretBox,
  TenantRepository,
} from '../domain/ports';
import type { SqlExecutor } from '../db/sql-executor';
import { AuthService } from './auth.service';
import { DidsService } from './dids.service';
import { HealthService } from './health.service';
import { KeysService } from './keys.service';
import { UsersService } from './users.service';
import { CredentialsService } from './family-a/credentials.service';
import { IssuerDidService } from './family-a/issuer-did.service';
import { SchemasService } from './family-a/schemas.service';
import { VerificationService } from './family-a/verification.service';
import { ZkpService } from './family-a/zkp.service';

export interface Services {
  readonly auth: AuthService;
  readonly keys: KeysService;
  readonly dids: DidsService;
  readonly users: UsersService;
  readonly health: HealthService;
  readonly issuerDids: IssuerDidService;
  readonly schemas: SchemasService;
  readonly credentials: CredentialsService;
  readonly verification: VerificationService;
  readonly zkp: ZkpService;
}

export interface ServiceDeps {
  readonly config: Config;
  readonly clock: Clock;
  readonly sql: SqlExecutor;
  readonly tenants: TenantRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly dids: DidRepository;
  readonly custody: KeyCustody;
  readonly box: SecretBox;
  readonly schemas: SchemaRepository;
  readonly issued: IssuedCredentialRepository;
  readonly issuerPointer: IssuerDidPointer;
}

/** Builds every use-case service once; both transports and the CLI share these instances. */
export function createServices(d: ServiceDeps): Services {
  const dids = new DidsService(d.dids, d.custody, { method: d.config.didMethod, network: d.config.network });
  const issuerDids = new IssuerDidService(dids, d.dids, d.issuerPointer, d.custody, d.clock);
  const schemas = new SchemasService(d.schemas, d.config.publicUrl);
  const credentials = new CredentialsService(issuerDids, schemas, d.issued, d.dids, d.box, d.clock);
  return {
    auth: new AuthService(d.tenants, d.apiKeys, d.clock, d.config.adminApiKey),
    keys: new KeysService(d.custody),
    dids,
    users: new UsersService(dids),
    health: new HealthService(d.sql),
    issuerDids,
    schemas,
    credentials,
    verification: new VerificationService(issuerDids, d.issued, d.schemas, credentials, d.clock),
    zkp: new ZkpService(d.issued, d.schemas, d.dids, d.custody, credentials, d.clock),
  };
}
