import type { Config } from '../config';
import type {
  ApiKeyRepository,
  Clock,
  DidRepository,
  FaceEngine,
  IssuedCredentialRepository,
  IssuerDidPointer,
  KeyCustody,
  SchemaRepository,
  SecretBox,
  TenantRepository,
} from '../domain/ports';
import type { SqlExecutor } from '../db/sql-executor';
import type { Ledger } from '../ledger/ledger.port';
import { AuthService } from './auth.service';
import { DidsService } from './dids.service';
import type { DidEntityProvisioner } from './did-entities';
import { HealthService } from './health.service';
import { KeysService } from './keys.service';
import { LedgerService } from './ledger.service';
import type { PrismaCredentialRepository } from '../db/repositories/credential.repository';
import type { PrismaTemplateRepository } from '../db/repositories/template.repository';
import { FamilyBCredentialsService } from './family-b/credentials.service';
import { PresentationsService } from './family-b/presentations.service';
import { SignaturesService } from './family-b/signatures.service';
import { TemplatesService } from './family-b/templates.service';
import { ZkpTokensService } from './family-b/zkp-tokens.service';
import { BiometricsService } from './biometrics.service';
import { UsersService } from './users.service';
import { CredentialsService } from './family-a/credentials.service';
import { IssuerDidService } from './family-a/issuer-did.service';
import { SchemasService } from './family-a/schemas.service';
import { HolderProofService } from './family-a/holder-proof.service';
import { VerificationService } from './family-a/verification.service';
import { ZkpService } from './family-a/zkp.service';
import { DEFAULT_ZK_ENGINE, ZkEngine } from '../zk/zk-engine';
import { ZkAgeTokens } from '../zk/zk-age-tokens';
import { ZkCertificates } from '../zk/zk-certificates';
import { type RateLimitStore, RateLimitService, limitCredentialLookups, limitPerCredential } from './rate-limit.service';
import { FairGate } from '../fairness/fair-gate';
import { DEFAULT_IDEMPOTENCY_TTL_SECONDS } from '../config/config';
import { type IdempotencyStore, IdempotencyService } from './idempotency.service';
import type { AnchorService } from '../anchor/anchor.service';
import type { VcIssuerRepository, VcStatusRepository } from '../domain/vc-issuers';
import type { DidResolver, StatusListSource } from '../vc/ports';
import { type VcApiServices, createVcApiServices } from './vc-api';
import type { RelatedResourceSource } from '../vc/related-resource';
import { DEFAULT_OAUTH } from '../config/config';
import { AccessTokens } from './oauth/access-tokens';
import { OAuthService } from './oauth/oauth.service';
import type { TokenKeys } from './oauth/token-keys';
import type { Oid4vcKeysService } from './oid4vc-keys.service';
import { TokenStatusListService } from './token-status-list.service';
import { IssuedElsewhere } from './issued-elsewhere';
import type { PrismaTokenStatusRepository } from '../db/repositories/token-status.repository';
import type { ReadRouter } from '../db/read-replica';
import { readOperations } from './read-operations';
import { bbs2023Engine } from '../formats/bbs-2023/engine';

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
  readonly holderProofs: HolderProofService;
  readonly zkp: ZkpService;
  readonly ledger: LedgerService;
  readonly templates: TemplatesService;
  readonly familyBCredentials: FamilyBCredentialsService;
  readonly presentations: PresentationsService;
  readonly signatures: SignaturesService;
  readonly zkpTokens: ZkpTokensService;
  /** Zero-knowledge workers (issue 18): started on the first ZK request; closed with the app. */
  readonly zk: ZkEngine;
  readonly biometrics: BiometricsService;
  /** Shared rate limits; the transports call it before oracle-shaped operations and public routes. */
  readonly rateLimits: RateLimitService;
  /** Per-tenant fair admission of write operations (the transports hold a slot per write, except sequenced ones). */
  readonly writes: FairGate;
  /** Idempotency-Key records of issuing requests (the transports claim and complete them). */
  readonly idempotency: IdempotencyService;
  /** The W3C VC-API: issuer instances, issuance, verification of anyone's credentials, status lists. */
  readonly vcApi: VcApiServices;
  /** The OAuth2 token endpoint's use case; undefined when no token keys were given (services built by hand). */
  readonly oauth: OAuthService | undefined;
  /** Access-token signing and verification (the JWKS comes from here). */
  readonly accessTokens: AccessTokens | undefined;
  /** Per-tenant OpenID4VC signing keys (credentials, request objects), their X.509 chains and the verifier's trust anchors. */
  readonly oid4vcKeys: Oid4vcKeysService;
  /** IETF Token Status Lists of the OpenID4VC issuer: allocation at issuance, flips on revocation, the published tokens, the status check. */
  readonly tokenStatus: TokenStatusListService;
  /** Issuers other than Family B whose credentials Family B's revocation route reaches (the OpenID4VCI issuer adds itself). */
  readonly issuedElsewhere: IssuedElsewhere;
}

/** What the VC-API needs from the composition root. */
export interface VcApiWiring {
  readonly issuers: VcIssuerRepository;
  readonly status: VcStatusRepository;
  /** CREDGATE_VC_API_BASE, e.g. `/vc-api`. */
  readonly base: string;
  /** Builds the DID resolver around the service's own DID method (resolved from its records). */
  readonly resolver: (dids: DidsService) => DidResolver;
  /** Other issuers' status lists over HTTPS (cached, bounded). */
  readonly remoteStatus: StatusListSource;
  /** relatedResource bytes for verification (VCDM 2.0 §5.3); absent: HTTPS to public addresses only. */
  readonly relatedResources?: RelatedResourceSource;
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
  readonly ledger: Ledger;
  readonly templateRepo: PrismaTemplateRepository;
  readonly credentialRepo: PrismaCredentialRepository;
  readonly faces: FaceEngine;
  readonly rateLimitStore: RateLimitStore;
  readonly idempotencyStore: IdempotencyStore;
  /** Shared with the credential repository, whose batches take their slots themselves. */
  readonly writes: FairGate;
  /** Per-DID ledger entities (CREDGATE_HEDERA_PER_DID): created before each new DID is stored. */
  readonly didEntities?: DidEntityProvisioner;
  /** Anchor status of signed heads (src/anchor); absent in tests that build services by hand. */
  readonly anchors?: AnchorService;
  readonly vcApi: VcApiWiring;
  /** Access-token keys derived from the master key (src/services/oauth/token-keys.ts); absent: no OAuth. */
  readonly tokenKeys?: TokenKeys;
  /** Built by the composition root: it needs the keyring to seal new keys in the key row's own transaction. */
  readonly oid4vcKeys: Oid4vcKeysService;
  readonly tokenStatusRepo: PrismaTokenStatusRepository;
  /** CREDGATE_READ_DATABASE_URL: where read-only operations read (src/db/read-replica); absent: the primary. */
  readonly readRouter?: ReadRouter | undefined;
}

const isRecord = (c: unknown): c is Record<string, unknown> => c !== null && typeof c === 'object' && !Array.isArray(c);
const isIdBearing = (c: unknown): c is { id: string } => isRecord(c) && typeof c['id'] === 'string';

/** Ids of the credentials a /verify-vp body presents (bounded: at most the first 100 members). */
function presentedIds(body: unknown): string[] {
  const vp = isRecord(body) ? body['vpToken'] : undefined;
  const members = isRecord(vp) ? vp['verifiableCredential'] : undefined;
  return Array.isArray(members) ? members.slice(0, 100).filter(isIdBearing).map((c) => c.id) : [];
}

/** Builds every use-case service once; both transports and the CLI share these instances. */
export function createServices(d: ServiceDeps): Services {
  const dids = new DidsService(d.dids, d.custody, { method: d.config.didMethod, network: d.config.network }, d.didEntities, d.clock);
  const issuerDids = new IssuerDidService(dids, d.dids, d.issuerPointer, d.custody, d.clock);
  const schemas = new SchemasService(d.schemas, d.config.publicUrl);
  const credentials = new CredentialsService(d.faces, issuerDids, schemas, d.issued, d.dids, d.box, d.clock);
  const templates = new TemplatesService(d.templateRepo, d.dids, d.clock);
  // Status List Tokens are signed by the tenant's OpenID4VC issuer key, the key of the credentials that point to them.
  const tokenStatus = new TokenStatusListService(d.tokenStatusRepo, (tenantId) => d.oid4vcKeys.signerFor(tenantId), d.config.publicUrl, d.clock);
  const issuedElsewhere = new IssuedElsewhere();
  const familyBCredentials = new FamilyBCredentialsService(d.credentialRepo, templates, d.dids, d.custody, d.ledger, d.clock, d.config.publicUrl, d.anchors, tokenStatus, issuedElsewhere);
  // One BBS engine per process (the format registry holds it): the deployment sets its workers and deadline.
  if (d.config.bbs) void bbs2023Engine.configure(d.config.bbs);
  const zkConfig = d.config.zk ?? DEFAULT_ZK_ENGINE;
  const zkLibrary = d.config.zk?.library;
  const zk = new ZkEngine({ ...DEFAULT_ZK_ENGINE, ...zkConfig, ...(zkLibrary !== undefined ? { resolveLibrary: () => zkLibrary } : {}) });
  const rateLimits = new RateLimitService(d.rateLimitStore, d.config.rateLimits, d.clock);
  // The service is both the authorization server and the resource server: iss = aud = its public URL.
  const accessTokens = d.tokenKeys
    ? new AccessTokens(d.tokenKeys, d.config.publicUrl, d.config.publicUrl, (d.config.oauth ?? DEFAULT_OAUTH).tokenTtlSeconds, d.clock)
    : undefined;
  // Read-only operations as the transports call them (their reads may come from the read replica):
  // verification and status lists fenced (never older than the request: a revocation acknowledged
  // before it is always seen), documents the client only reads at its own last write at least.
  const r = d.readRouter;
  const vcApi = createVcApiServices({
    issuerRepo: d.vcApi.issuers,
    statusRepo: d.vcApi.status,
    custody: d.custody,
    clock: d.clock,
    publicUrl: d.config.publicUrl,
    base: d.vcApi.base,
    resolver: d.vcApi.resolver(dids),
    // bbs-2023 template credentials' lists are read from Family B directly (current bits, no HTTP to itself).
    remoteStatus: familyBCredentials.statusSource(d.vcApi.remoteStatus),
    ...(d.vcApi.relatedResources ? { relatedResources: d.vcApi.relatedResources } : {}),
    ...(d.config.verification ? { verificationLimits: d.config.verification } : {}),
    revocations: tokenStatus,
  });
  const auth = new AuthService(d.tenants, d.apiKeys, d.clock, d.config.adminApiKey, d.dids, accessTokens);
  // Per-credential budgets sit where a credential id meets a verifier: the Family A verifier's
  // lookup of the sealed record, Family B credential verification and presentation verification.
  // Internal callers keep the unlimited instances.
  return {
    auth,
    oauth: accessTokens ? new OAuthService(auth, accessTokens, rateLimits) : undefined,
    accessTokens,
    keys: new KeysService(d.custody),
    dids: readOperations(dids, ['getDidDocument', 'resolveDocument', 'resolve'], r, 'session'),
    users: new UsersService(dids),
    health: new HealthService(d.sql, d.config.dbTimeouts.connectTimeoutMs),
    issuerDids,
    schemas: readOperations(schemas, ['list', 'get', 'publicBody'], r, 'session'),
    credentials,
    holderProofs: new HolderProofService(),
    verification: readOperations(new VerificationService(d.faces, issuerDids, limitCredentialLookups(d.issued, rateLimits), d.schemas, credentials, d.clock, new ZkCertificates(zk, d.custody)), ['verify'], r, 'fenced'),
    zkp: new ZkpService(d.issued, d.schemas, d.dids, d.custody, credentials, d.clock, new ZkCertificates(zk, d.custody)),
    ledger: new LedgerService(d.ledger, d.anchors),
    templates: readOperations(templates, ['list', 'getByName'], r, 'session'),
    // The budgets are counted before the read-only operation starts (their counters are writes).
    familyBCredentials: limitPerCredential(readOperations(familyBCredentials, ['verify', 'statusListCredential'], r, 'fenced'), 'verify', (c) => (isIdBearing(c) ? [c.id] : []), rateLimits),
    presentations: limitPerCredential(readOperations(new PresentationsService(d.credentialRepo, familyBCredentials, d.dids, d.custody, d.clock), ['verify'], r, 'fenced'), 'verify', presentedIds, rateLimits),
    signatures: new SignaturesService(),
    biometrics: new BiometricsService(d.faces),
    zkpTokens: new ZkpTokensService(d.credentialRepo, d.templateRepo, d.dids, d.custody, d.clock, new ZkAgeTokens(zk, d.custody)),
    zk,
    rateLimits,
    idempotency: new IdempotencyService(d.idempotencyStore, { ttlSeconds: d.config.idempotencyTtlSeconds ?? DEFAULT_IDEMPOTENCY_TTL_SECONDS }),
    writes: d.writes,
    oid4vcKeys: d.oid4vcKeys,
    tokenStatus: readOperations(tokenStatus, ['token'], r, 'fenced'),
    issuedElsewhere,
    vcApi: {
      ...vcApi,
      status: readOperations(vcApi.status, ['published'], r, 'fenced'),
      verification: readOperations(vcApi.verification, ['verifyCredential', 'verifyPresentation'], r, 'fenced'),
    },
  };
}

/**
 * The per-tenant write gate: the transports hold a slot per write request, except Family B
 * issuance and revocation, whose batches hold one per transaction (see PrismaCredentialRepository).
 */
export function createWriteGate(config: Config): FairGate {
  return new FairGate({
    limit: config.fairness.writeConcurrency,
    perOwnerLimit: config.fairness.tenantWriteConcurrency,
    maxQueuedPerOwner: config.fairness.tenantWriteQueue,
    retryAfterSeconds: 1,
    busyMessage: 'too many write requests of this tenant in progress, retry later',
  });
}
