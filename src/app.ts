import 'reflect-metadata';
import express, { type Express } from 'express';
import type { ContainerType } from 'type-graphql';
import type { Config } from './config';
import { type Database, openDatabase } from './db/database';
import { type ReadReplica, type ReadRouter, openReadReplica } from './db/read-replica';
import { type CacheOptions, type InvalidationBus, LocalInvalidationBus, PgInvalidationBus, cachedSchemas } from './cache';
import { DEFAULT_API_KEY_CACHE_TTL_MS, cachedApiKeys } from './cache/api-key-cache';
import { DEFAULT_CACHE_ENTRIES } from './config/config';
import { migrate, readMigrations } from './db/migrator';
import { PrismaApiKeyRepository } from './db/repositories/api-key.repository';
import { PrismaDidRepository } from './db/repositories/did.repository';
import { PrismaManagedKeyRepository } from './db/repositories/managed-key.repository';
import { PrismaTenantRepository } from './db/repositories/tenant.repository';
import { PrismaIssuedCredentialRepository } from './db/repositories/issued-credential.repository';
import { PrismaIssuerDidPointer } from './db/repositories/issuer-did-pointer.repository';
import { PrismaSchemaRepository } from './db/repositories/schema.repository';
import { PrismaCredentialRepository } from './db/repositories/credential.repository';
import { PrismaTemplateRepository } from './db/repositories/template.repository';
import { PrismaRateLimitRepository } from './db/repositories/rate-limit.repository';
import { BatchedRateLimitStore } from './db/repositories/rate-limit-batch.repository';
import { PrismaIdempotencyRepository } from './db/repositories/idempotency.repository';
import { EnvelopeSecretBox } from './kms/secret-box';
import { type Clock, type FaceEngine, type KeyCustody, systemClock } from './domain/ports';
import { createFaceEngine } from './biometrics';
import { createCanonicalizer } from './canon';
import { DEFAULT_JSONLD_BUDGET, registerCanonicalizationExecutor } from './domain/contexts';
import { lazyFaceEngine } from './services/biometrics.service';
import { buildGraphqlSchema } from './graphql/build-schema';
import { DidsResolver } from './graphql/resolvers/dids.resolver';
import { KeysResolver } from './graphql/resolvers/keys.resolver';
import { HolderResolver } from './graphql/resolvers/family-a/holder.resolver';
import { IssuerResolver } from './graphql/resolvers/family-a/issuer.resolver';
import { SchemasResolver } from './graphql/resolvers/family-a/schemas.resolver';
import { VerifierResolver } from './graphql/resolvers/family-a/verifier.resolver';
import { PresentationsResolver } from './graphql/resolvers/family-b/presentations.resolver';
import { SignaturesResolver } from './graphql/resolvers/family-b/signatures.resolver';
import { TemplateCredentialsResolver } from './graphql/resolvers/family-b/template-credentials.resolver';
import { TemplatesResolver } from './graphql/resolvers/family-b/templates.resolver';
import { ZkpTokensResolver } from './graphql/resolvers/family-b/zkp-tokens.resolver';
import { LedgerResolver } from './graphql/resolvers/ledger.resolver';
import { FacesResolver } from './graphql/resolvers/family-a/faces.resolver';
import { VcApiResolver } from './graphql/resolvers/vc-api/vc-api.resolver';
import { Oid4vpResolver } from './graphql/resolvers/oid4vp/oid4vp.resolver';
import { createGraphqlEndpoint } from './graphql/server';
import { rateLimitMiddleware } from './graphql/rate-limit.middleware';
import { EnvelopeKeyCustody } from './kms/key-custody';
import { Oid4vcKeysService } from './services/oid4vc-keys.service';
import { PrismaOid4vcKeyRepository } from './db/repositories/oid4vc-key.repository';
import { loadOid4vcMaterial } from './x509/operator-material';
import { resolveMasterKey } from './kms/master-key';
import { tokenKeysFor } from './services/oauth/token-keys';
import { oauthRoutes } from './rest/oauth.routes';
import { createOid4vpVerifier } from './oid4vc/verifier';
import { createHttpStatusListTokenSource, statusListTokenSourceOptionsFromConfig } from './formats/token-status-list';
import { formats as formatRegistry } from './formats/registry';
import { oid4vpWalletRoutes } from './rest/oid4vp/wallet.routes';
import { type Oid4vciIssuerServices, createOid4vciIssuer, credentialSources, loginHintAuthenticator, noUserAuthentication, DEFAULT_OID4VCI_SETTINGS, oid4vciFormatsFrom, oid4vciIssuerActor } from './oid4vc/issuer';
import { PrismaOid4vciRepository } from './db/repositories/oid4vci.repository';
import { PrismaOid4vpRequestRepository } from './db/repositories/oid4vp-request.repository';
import { oid4vciWalletRoutes } from './rest/oid4vci/wallet.routes';
import { oid4vciOfferRoutes } from './rest/oid4vci/offers.routes';
import { walletConsoleApiRoutes, walletConsolePageRoutes } from './rest/wallet-console/console.routes';
import { Oid4vciOffersResolver } from './graphql/resolvers/oid4vci/offers.resolver';
import { WalletConsoleResolver } from './graphql/resolvers/wallet-console/wallet-console.resolver';
import { WalletConsoleService } from './services/wallet-console.service';
import { databaseHasMasterKey, verifyMasterKey } from './kms/master-key-check';
import { type Ledger, createLedger } from './ledger';
import { ledgerSeed } from './kms/ledger-seed';
import { type WitnessCosigner, withWitnesses } from './witness';
import type { Logger } from './logging/logger';
import { healthRoutes } from './rest/health.routes';
import { errorHandler, notFoundHandler } from './rest/middleware/error-handler';
import { requestContext } from './rest/middleware/request-context';
import { familyOfPath, restRouter } from './rest/router';
import { indexRoutes } from './rest/index.routes';
import { openapiRoutes } from './rest/openapi/routes';
import { methodNotAllowed } from './rest/middleware/method-not-allowed';
import { RouteTable, collectRoutes } from './rest/route-table';
import { gated } from './rest/segment-gate';
import { ByteBudget } from './rest/middleware/upload-guard';
import { type Services, createServices, createWriteGate } from './services';
import { AnchorOutbox } from './anchor/outbox';
import { AnchorService } from './anchor/anchor.service';
import { type LogEntityLookup, loadAnchorAdapter } from './anchor/load-adapter';
import { hasDidEntities } from './anchor/anchor.port';
import { canonicalBytes } from './domain/canonical';
import { ledgerFileDocument } from './domain/dids/service-did-documents';
import { DidEntityProvisioner } from './services/did-entities';
import { AnchorRelay, DEFAULT_RELAY_OPTIONS } from './anchor/relay';
import type { AnchorAdapter } from './anchor/anchor.port';
import { PrismaVcIssuerRepository } from './db/repositories/vc-issuer.repository';
import { PrismaVcStatusRepository } from './db/repositories/vc-status.repository';
import { PrismaTokenStatusRepository } from './db/repositories/token-status.repository';
import { VC_API_DEFAULT_BASE } from './contracts/vc-api';
import { createDidResolver, resolverOptionsFromConfig, serviceDidLookup } from './vc/resolver';
import { createHttpStatusListSource, statusSourceOptionsFromConfig } from './vc/status';
import { createHttpResourceSource } from './vc/related-resource';
import { fetchPolicyFromConfig } from './vc/resolver/from-config';
import { parseDidResolution } from './config/did-resolution';
import { expressTrustProxy } from './config/trust-proxy';

export interface AppOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock?: Clock;
}

export interface CredgateApp {
  readonly http: Express;
  readonly db: Database;
  readonly services: Services;
  /** Key custody, exposed for administration and tests; transports never use it directly. */
  readonly custody: KeyCustody;
  /** The transparency-log port (appends happen inside the services that own anchored records). */
  readonly ledger: Ledger;
  /** Sends stored heads to the configured witnesses; `idle()` waits for the requests in flight. */
  readonly cosigner: WitnessCosigner;
  /** Batch counters of the Family B issuance and revocation sequencers. */
  batchStats(): ReturnType<PrismaCredentialRepository['stats']>;
  /** How the record caches hear of other instances' changes (tests wait on its barrier). */
  readonly cacheBus: InvalidationBus;
  /** Where read-only operations read (CREDGATE_READ_DATABASE_URL); undefined without a replica. */
  readonly readRouter: ReadRouter | undefined;
  /** Commits queued batches and waits for those in flight, then closes everything (the database last). */
  close(): Promise<void>;
}

/**
 * How this instance hears of other instances' changes to cached records: LISTEN/NOTIFY on
 * PostgreSQL; nothing to hear on PGlite (one process per data folder).
 */
async function invalidationBus(config: Config, logger: Logger): Promise<InvalidationBus> {
  if (config.database.kind !== 'postgres') return new LocalInvalidationBus();
  const bus = new PgInvalidationBus(config.database.url, logger);
  await bus.start();
  return bus;
}

/** The anchor outbox every instance writes to, and the configured ledger adapter. */
export interface CoreAnchoring {
  readonly outbox: AnchorOutbox;
  /** Null with CREDGATE_ANCHOR=none. */
  readonly adapter: AnchorAdapter | null;
}

/** Opens and migrates the database and returns services only (used by the CLI). */
export async function createCore(
  options: AppOptions,
): Promise<{
  db: Database;
  services: Services;
  custody: KeyCustody;
  ledger: Ledger;
  faces: FaceEngine;
  cosigner: WitnessCosigner;
  credentialRepo: PrismaCredentialRepository;
  cacheBus: InvalidationBus;
  anchoring: CoreAnchoring;
  oid4vp: ReturnType<typeof createOid4vpVerifier>;
  oid4vci: Oid4vciIssuerServices;
  readRouter: ReadRouter | undefined;
}> {
  const { config, logger } = options;
  const opened = await openDatabase(config.database, config.dbTimeouts);
  let replica: ReadReplica | undefined;
  let bus: InvalidationBus | undefined;
  try {
    // The replica's clients are the primary's everywhere but inside read-only operations
    // (src/services/read-operations.ts), so every repository is built on them unchanged.
    replica = config.readReplica ? await openReadReplica(config.readReplica, config.dbTimeouts, opened, logger) : undefined;
    bus = await invalidationBus(config, logger);
  } catch (e) {
    await replica?.close();
    await opened.close();
    throw e;
  }
  const startedBus = bus;
  const db: Database = {
    ...opened,
    ...(replica ? { prisma: replica.prisma, sql: replica.sql } : {}),
    close: async () => {
      await startedBus.close();
      await replica?.close();
      await opened.close();
    },
  };
  const cache: CacheOptions = { maxEntries: config.cacheEntries ?? DEFAULT_CACHE_ENTRIES, bus };
  try {
    const applied = await migrate(db.sql, readMigrations(), (name) => logger.info({ migration: name }, 'applying database migration'));
    if (applied.length > 0) logger.info({ applied }, 'applied database migrations');
    // The master key is checked against the database before anything is sealed or signed with it.
    const masterKey = resolveMasterKey(config, logger, await databaseHasMasterKey(db.prisma));
    const keyring = await verifyMasterKey(db.prisma, masterKey, config.masterKeyPrevious);
    // One deployment-wide log signing key: HKDF-SHA256(master key of record, info 'credgate/ledger-log-key/v1'),
    // kept sealed in the database once the master key has been rotated (src/kms/ledger-seed.ts).
    const seed = await ledgerSeed(db.prisma, keyring, [masterKey, ...(config.masterKeyPrevious ? [config.masterKeyPrevious] : [])]);
    // Each stored head is sent to the configured witnesses in the background (src/witness).
    // The log reads and repairs its heads on the primary only (a repair must not start from a replica's past).
    const { ledger, cosigner } = withWitnesses(opened.prisma, config.witness, { clock: options.clock ?? systemClock, logger }, (onSigned) =>
      createLedger(opened.prisma, {
        sql: opened.sql,
        seed,
        origin: `${new URL(config.publicUrl).host}/ledger`,
        clock: options.clock ?? systemClock,
        logger,
        onSigned,
      }),
    );
    const writes = createWriteGate(config);
    // A tenant's write queue bound applies to each of its issuers' sequencer lanes.
    const credentialRepo = new PrismaCredentialRepository(db, ledger, { ...config.batch, maxQueued: config.fairness.tenantWriteQueue }, writes, cache);
    const custody = new EnvelopeKeyCustody(keyring, new PrismaManagedKeyRepository(db.prisma, db.sql));
    // OpenID4VC signing keys: the operator's certificate, key and anchors are read (and checked) once, here.
    const oid4vcKeys = new Oid4vcKeysService({
      repo: new PrismaOid4vcKeyRepository(db.prisma),
      custody,
      keyring,
      publicUrl: config.publicUrl,
      clock: options.clock ?? systemClock,
      logger,
      material: await loadOid4vcMaterial(config.oid4vcKeys),
    });
    // Imported only when CREDGATE_ANCHOR names an adapter (viem is an optional dependency).
    const anchorConfig = config.anchor ?? { mode: 'none' as const };
    const didRepo = new PrismaDidRepository(db.prisma, ledger, cache);
    // Per-DID Hedera mode: a DID's topics are its log ids, and its file log is anchored by writing its document into the file.
    const entityOf: LogEntityLookup = async (logId, network) => {
      const hit = await didRepo.findByLedgerEntity(logId, network);
      if (!hit) return null;
      return hit.entity === 'file' ? { kind: 'file', document: canonicalBytes(ledgerFileDocument(hit.record)) } : { kind: 'topic' };
    };
    const anchoring: CoreAnchoring = { outbox: new AnchorOutbox(db.prisma), adapter: await loadAnchorAdapter(anchorConfig, config.hedera, entityOf) };
    const perDid = anchorConfig.mode === 'hedera' && config.hedera?.perDid !== false && hasDidEntities(anchoring.adapter);
    const didEntities = perDid && hasDidEntities(anchoring.adapter) ? new DidEntityProvisioner(anchoring.adapter, config.hedera?.entityTimeoutMs ?? 20_000, logger) : undefined;
    // Workers and models start on the first face request, not at boot.
    const faces = lazyFaceEngine(() => {
      logger.info('loading the face model for the first face request (about 1.5 s per worker)');
      return createFaceEngine({
        threshold: config.faces.threshold,
        maxImageBytes: config.faces.maxImageBytes,
        ...(config.faces.workers ? { workers: config.faces.workers } : {}),
        ...(config.fairness.faceTenantShare !== undefined ? { tenantShare: config.fairness.faceTenantShare } : {}),
      });
    });
    // Configs built by hand (tests) may omit the fetch section: the environment's defaults then.
    const fetching = config.didResolution ?? parseDidResolution({}, process.cwd());
    const services = createServices({
      config,
      clock: options.clock ?? systemClock,
      sql: db.sql,
      tenants: new PrismaTenantRepository(db.prisma),
      apiKeys: cachedApiKeys(new PrismaApiKeyRepository(db.prisma), { ...cache, ttlMs: config.apiKeyCacheTtlMs ?? DEFAULT_API_KEY_CACHE_TTL_MS }),
      dids: didRepo,
      ...(didEntities ? { didEntities } : {}),
      custody,
      box: new EnvelopeSecretBox(keyring),
      schemas: cachedSchemas(new PrismaSchemaRepository(db.prisma), cache),
      issued: new PrismaIssuedCredentialRepository(db),
      issuerPointer: new PrismaIssuerDidPointer(db),
      ledger,
      templateRepo: new PrismaTemplateRepository(db.prisma, ledger, cache),
      credentialRepo,
      faces,
      // Hits group-committed, one statement per batch, every budget exact (the file says why not slices).
      rateLimitStore: new BatchedRateLimitStore(db.sql, new PrismaRateLimitRepository(db.prisma)),
      idempotencyStore: new PrismaIdempotencyRepository(db.prisma),
      writes,
      anchors: new AnchorService(anchoring.outbox, anchoring.adapter, anchorConfig.mode),
      vcApi: {
        issuers: new PrismaVcIssuerRepository(db.prisma),
        status: new PrismaVcStatusRepository(db),
        base: config.vcApiBase ?? VC_API_DEFAULT_BASE,
        // did:key locally, did:web over HTTPS, the service's own method from its records.
        resolver: (dids) => createDidResolver(resolverOptionsFromConfig(fetching, serviceDidLookup(dids, config.didMethod))),
        // Other issuers' lists only: the service's own are read from the database (VcStatusListsService.source).
        remoteStatus: createHttpStatusListSource(statusSourceOptionsFromConfig(fetching)),
        // relatedResource bytes (VCDM 2.0 §5.3): same timeout, SSRF switch and CAs; 1 MiB each.
        relatedResources: createHttpResourceSource(fetchPolicyFromConfig(fetching, 1024 * 1024)),
      },
      tokenKeys: tokenKeysFor(masterKey, config.masterKeyPrevious),
      oid4vcKeys,
      tokenStatusRepo: new PrismaTokenStatusRepository(db.prisma),
      readRouter: replica?.router,
    });
    // OID4VP verifier: request objects signed with the tenant's 'oid4vp-request' key (x5c), issuer
    // chains checked against the deployment's anchors, DIDs through the same resolver as the VC-API.
    const oid4vp = createOid4vpVerifier({
      requests: new PrismaOid4vpRequestRepository(db.prisma),
      box: new EnvelopeSecretBox(keyring),
      clock: options.clock ?? systemClock,
      publicUrl: config.publicUrl,
      resolver: createDidResolver(resolverOptionsFromConfig(fetching, serviceDidLookup(services.dids, config.didMethod))),
      anchors: () => oid4vcKeys.trustAnchors(),
      requestSigner: (tenantId) => oid4vcKeys.signerFor(tenantId, 'oid4vp-request'),
      ownStatus: services.tokenStatus,
      remoteStatus: createHttpStatusListTokenSource(statusListTokenSourceOptionsFromConfig(fetching)),
      allowPrivateWebhooks: fetching.allowPrivate,
      ...(config.verification ? { limits: config.verification } : {}),
      logger,
    });
    // OID4VCI issuer: offers of the tenant's templates and schema versions, minted by the formats
    // that can sign now (SD-JWT VC with the tenant's 'oid4vci-issuer' key, ldp_vc with its VC-API issuer).
    const oid4vciSettings = config.oid4vci ?? DEFAULT_OID4VCI_SETTINGS;
    const oid4vciStore = new PrismaOid4vciRepository(db.prisma);
    const sourceTemplates = new PrismaTemplateRepository(db.prisma, ledger, cache);
    const sourceSchemas = new PrismaSchemaRepository(db.prisma);
    const clock = options.clock ?? systemClock;
    // The VC-API issuer a W3C format offered over OpenID4VCI signs with: the tenant's default one, or
    // (JWT VCs) its instance of that suite with a P-256 key, since wallets under HAIP check ES256.
    const oid4vciW3cIssuer = (tenantId: string, suite?: string) =>
      suite === undefined ? services.vcApi.issuers.defaultFor(oid4vciIssuerActor(tenantId)) : services.vcApi.issuers.forSuite(oid4vciIssuerActor(tenantId), suite, 'P-256');
    const oid4vci = createOid4vciIssuer({
      store: oid4vciStore,
      settings: oid4vciSettings,
      clock,
      tenants: new PrismaTenantRepository(db.prisma),
      sources: credentialSources({ listTemplates: (t, page) => sourceTemplates.list(t, page), listSchemas: (t) => sourceSchemas.listByTenant(t) }),
      // Every format the registry offers over OpenID4VCI, bound to the tenant's keys, status lists and VC-API issuer.
      formats: oid4vciFormatsFrom(formatRegistry, {
        signerFor: (tenantId) => oid4vcKeys.signerFor(tenantId, 'oid4vci-issuer'),
        allocateStatus: (tenantId, credentialId) => services.tokenStatus.allocate(tenantId, credentialId),
        now: () => clock.now(),
        w3c: {
          issuerDid: async (tenantId, suite) => (await oid4vciW3cIssuer(tenantId, suite)).did,
          issue: async (tenantId, credential, suite) => {
            const selector = suite === undefined ? ({ kind: 'default' } as const) : ({ kind: 'instance', id: (await oid4vciW3cIssuer(tenantId, suite)).id } as const);
            return (await services.vcApi.issuance.issue(oid4vciIssuerActor(tenantId), selector, { credential })).verifiableCredential;
          },
        },
      }),
      publicUrl: config.publicUrl,
      revocations: services.tokenStatus,
      // Wallet attestations must chain to the same anchors as credential issuers (CREDGATE_OID4VC_TRUST_ANCHORS_FILE).
      walletTrust: oid4vcKeys.issuerTrust(),
      users: oid4vciSettings.testLogin
        ? loginHintAuthenticator(async (tenantId, offerId) => {
            const sub = (await oid4vciStore.findOffer(tenantId, offerId))?.claims['sub'];
            return typeof sub === 'string' ? sub : null;
          })
        : noUserAuthentication,
    });
    // Family B's DELETE /credentials/{id} (and GraphQL revokeTemplateCredential) reach each credential a wallet received.
    services.issuedElsewhere.add(oid4vci.issuedCredentials);
    return { db, services, custody, ledger, faces, cosigner, credentialRepo, cacheBus: startedBus, anchoring, oid4vp, oid4vci, readRouter: replica?.router };
  } catch (e) {
    await db.close();
    throw e;
  }
}

/** The composition root: wires every layer. It does not listen; main.ts and tests do. */
export async function createApp(options: AppOptions): Promise<CredgateApp> {
  const { config, logger } = options;
  const { db, services, custody, ledger, faces, cosigner, credentialRepo, cacheBus, anchoring, oid4vp, oid4vci, readRouter } = await createCore(options);
  // The operator page's reads (/wallets), over the issuer and verifier services.
  const walletConsole = new WalletConsoleService(oid4vci, oid4vp.service);
  // Heads for logs left beyond their signed head (a crash between a commit and its head): in the
  // background, so a backlog does not delay start-up (reads answer 503 for those logs meanwhile);
  // close() waits for it. The CLI (createCore alone) does not run it.
  const repairing = ledger.settleAll().then(
    (n) => n > 0 && logger.info({ logs: n }, 'checked ledger logs that lacked a signed head'),
    (e: unknown) => logger.warn({ err: e instanceof Error ? e.message : String(e) }, 'could not check ledger heads at start-up'),
  );
  const resolvers = new Map<unknown, unknown>([
    [KeysResolver, new KeysResolver(services.keys, services.users)],
    [DidsResolver, new DidsResolver(services.dids, services.users)],
    [IssuerResolver, new IssuerResolver(services.issuerDids, services.credentials, services.zkp)],
    [SchemasResolver, new SchemasResolver(services.schemas)],
    [HolderResolver, new HolderResolver(services.credentials, services.holderProofs)],
    [VerifierResolver, new VerifierResolver(services.verification, config.faces.maxImageBytes)],
    [FacesResolver, new FacesResolver(services.biometrics, config.faces.maxImageBytes)],
    [LedgerResolver, new LedgerResolver(services.ledger)],
    [TemplatesResolver, new TemplatesResolver(services.templates)],
    [TemplateCredentialsResolver, new TemplateCredentialsResolver(services.familyBCredentials)],
    [PresentationsResolver, new PresentationsResolver(services.presentations)],
    [SignaturesResolver, new SignaturesResolver(services.signatures)],
    [ZkpTokensResolver, new ZkpTokensResolver(services.zkpTokens)],
    [VcApiResolver, new VcApiResolver(services.vcApi)],
    [Oid4vpResolver, new Oid4vpResolver(oid4vp.service)],
    [Oid4vciOffersResolver, new Oid4vciOffersResolver(oid4vci.offers, oid4vci.issuedCredentials)],
    [WalletConsoleResolver, new WalletConsoleResolver(walletConsole)],
  ]);
  const container: ContainerType = { get: (cls) => resolvers.get(cls) };
  // One budget for every buffered upload, REST and GraphQL alike. A multipart request carries at
  // most three photos (GraphQL allows one spare part) plus a JSON body.
  const uploads = {
    uploadBudget: new ByteBudget(config.http.uploadBudgetBytes),
    maxUploadBytes: 3 * (config.faces.maxImageBytes + 1) + config.bodyLimitBytes,
    uploadIdleTimeoutMs: config.http.uploadIdleTimeoutMs,
  };
  const graphql = await createGraphqlEndpoint({
    schema: buildGraphqlSchema(container, [rateLimitMiddleware(services)]),
    auth: services.auth,
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    jsonMaxDepth: config.jsonMaxDepth,
    limits: config.graphql,
    ...uploads,
    maxImageBytes: config.faces.maxImageBytes,
    idempotency: services.idempotency,
    playground: config.graphqlUi.playground,
    introspection: config.graphqlUi.introspection,
    readRouter,
  });

  const http = express();
  http.disable('x-powered-by');
  // req.ip is the real client only behind a hop the operator named (off: the socket peer), so
  // per-address limits neither merge every client behind a proxy nor trust a spoofed header.
  http.set('trust proxy', expressTrustProxy(config.trustProxy ?? { kind: 'off' }));
  // Read once, on the first request, when every router below is mounted.
  let table: RouteTable | undefined;
  const routes = (): RouteTable => (table ??= new RouteTable(collectRoutes(http.router.stack)));
  http.use(requestContext(logger));
  http.use(methodNotAllowed(routes, familyOfPath(services.vcApi.base)));
  // Each router is entered only by the paths it can serve (src/rest/segment-gate.ts): express would
  // otherwise match every route of every router in turn for every request.
  http.use(gated(indexRoutes(routes)));
  http.use(gated(openapiRoutes({ docs: config.apiDocs, vcApiBase: services.vcApi.base })));
  http.use(gated(healthRoutes(services.health, readRouter)));
  // Before /graphql and the REST router: the token endpoint takes form bodies and no API key.
  if (services.oauth && services.accessTokens) http.use(gated(oauthRoutes(services.oauth, services.accessTokens, services.rateLimits, config.publicUrl)));
  // Wallet-facing OID4VP endpoints: form bodies, no API key, OAuth-style errors (like the token endpoint).
  http.use(gated(oid4vpWalletRoutes(oid4vp.service, services.rateLimits)));
  // Wallet-facing OpenID4VCI endpoints: no API key (codes, DPoP-bound tokens and key proofs instead).
  http.use(gated(oid4vciWalletRoutes(oid4vci, services.rateLimits, config.publicUrl)));
  // The operator page (docs/WALLETS.md): keyless like GraphiQL; its API calls carry the key.
  http.use(gated(walletConsolePageRoutes()));
  http.use(gated(graphql.router));
  http.use(restRouter(services, { bodyLimitBytes: config.bodyLimitBytes, maxImageBytes: config.faces.maxImageBytes, jsonMaxDepth: config.jsonMaxDepth, ...uploads, oid4vp: oid4vp.service, readRouter }, [oid4vciOfferRoutes(services.auth, oid4vci.offers, oid4vci.issuedCredentials), walletConsoleApiRoutes(services.auth, walletConsole)]));
  http.use(notFoundHandler());
  http.use(errorHandler());

  // JSON-LD canonicalisation leaves the event loop: worker threads (started on first use) with a
  // deadline. Registered last, once nothing above can fail and leave it registered.
  const { workers, deadlineMs, queueLimit, maxObjects, maxValues } = config.canon;
  const canon = createCanonicalizer({ workers, deadlineMs, queueLimit, budget: { ...DEFAULT_JSONLD_BUDGET, maxObjects, maxValues } });
  const unregisterCanon = registerCanonicalizationExecutor(canon);
  // The outbox relay: claims checkpoints written with each signed head and anchors them.
  const relay = anchoring.adapter ? new AnchorRelay(anchoring.outbox, anchoring.adapter, { ...DEFAULT_RELAY_OPTIONS, ...config.anchor?.relay }, logger) : undefined;
  relay?.start();

  return {
    http,
    db,
    services,
    custody,
    ledger,
    cosigner,
    batchStats: () => credentialRepo.stats(),
    cacheBus,
    readRouter,
    async close() {
      await graphql.stop();
      // Every request already answered was committed; these are the ones still waiting for theirs.
      await credentialRepo.drain();
      const { issue, revoke } = credentialRepo.stats();
      logger.info({ issue: { requests: issue.requests, batches: issue.batches }, revoke: { requests: revoke.requests, batches: revoke.batches } }, 'issuance sequencer totals');
      await repairing;
      await ledger.close();
      // After the last heads were stored (and their outbox rows written): what is still pending
      // stays in the outbox for the next relay.
      await relay?.stop();
      await oid4vp.drain();
      await anchoring.adapter?.close();
      unregisterCanon();
      await canon.close();
      await services.zk.close();
      await faces.close();
      await cosigner.close();
      await db.close();
    },
  };
}
