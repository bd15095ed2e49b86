import { type NextFunction, type Request, type Response, Router } from 'express';
import type { Services } from '../services';
import type { RestLocals } from './context';
import { userRoutes } from './family-a/user.routes';
import { issuerRoutes } from './family-a/issuer.routes';
import { schemaRoutes } from './family-a/schema.routes';
import { verifierRoutes } from './family-a/verifier.routes';
import { imageRoutes } from './family-a/image.routes';
import { publicRoutes } from './public.routes';
import { didRoutes } from './family-b/dids.routes';
import { keyRoutes } from './family-b/keys.routes';
import { ledgerRoutes } from './family-b/ledger.routes';
import { credentialRoutes } from './family-b/credentials.routes';
import { presentationRoutes } from './family-b/presentations.routes';
import { templateRoutes } from './family-b/templates.routes';
import { resolverRoutes } from './family-b/resolver.routes';
import { authenticateFirst } from './middleware/authenticate-first';
import { jsonBody } from './middleware/body';
import { sendAppError } from './middleware/error-handler';
import { type ByteBudget, uploadGuard } from './middleware/upload-guard';
import { rateLimits } from './middleware/rate-limit';
import { idempotentIssuing } from './middleware/idempotency';
import { readConsistency } from './middleware/read-consistency';
import type { ReadRouter } from '../db/read-replica';
import { vcApiRoutes } from './vc-api/vc-api.routes';
import { oid4vpVerifierRoutes } from './oid4vp/verifier.routes';
import type { Oid4vpVerifierService } from '../oid4vc/verifier';
import { tokenStatusRoutes } from './oid4vc/token-status.routes';
import { isVcApiPath } from './vc-api-path';
import { gated } from './segment-gate';
import type { Family } from './context';

/** Path prefixes of Family A; their errors use the Family A envelope. */
export const FAMILY_A_PREFIXES = ['/api', '/issuer', '/user', '/verifier'];

/** Whether a request path belongs to Family A (same prefixes, matched case-insensitively like express). */
export function isFamilyAPath(path: string): boolean {
  const p = path.toLowerCase();
  return FAMILY_A_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
}

function markFamilyA(_req: Request, res: Response, next: NextFunction): void {
  (res.locals as RestLocals).family = 'A';
  next();
}

/** Not mounted on the base path: a path-mounted middleware would show in the route table as an endpoint. */
function markProblem(base: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (isVcApiPath(req.path, base)) (res.locals as RestLocals).family = 'P';
    next();
  };
}

export { isVcApiPath };

/** The error envelope of a path: Family A, the VC-API's problem details, or Family B. */
export function familyOfPath(vcApiBase: string): (path: string) => Family {
  return (path) => (isFamilyAPath(path) ? 'A' : isVcApiPath(path, vcApiBase) ? 'P' : 'B');
}

export interface RestOptions {
  readonly bodyLimitBytes: number;
  readonly maxImageBytes: number;
  readonly jsonMaxDepth: number;
  /** Shared with /graphql: one budget for every buffered upload in the process. */
  readonly uploadBudget: ByteBudget;
  readonly maxUploadBytes: number;
  readonly uploadIdleTimeoutMs: number;
  /** The OID4VP verifier's relying-party routes (absent in routers built without one). */
  readonly oid4vp?: Oid4vpVerifierService;
  /** The read replica's router (CREDGATE_READ_DATABASE_URL): Credgate-LSN in and out. */
  readonly readRouter?: ReadRouter | undefined;
}

/** Every documented REST path; Family A paths are served bare and under /api. */
export function restRouter(services: Services, options: RestOptions, extra: readonly Router[] = []): Router {
  const { maxImageBytes } = options;
  const r = Router();
  r.use(FAMILY_A_PREFIXES, markFamilyA);
  r.use(markProblem(services.vcApi.base));
  // Order matters: the key is checked, then the upload budget, and only then is a body read.
  r.use(authenticateFirst(services.auth));
  r.use(uploadGuard({ budget: options.uploadBudget, maxRequestBytes: options.maxUploadBytes, idleTimeoutMs: options.uploadIdleTimeoutMs, respond: sendAppError }));
  r.use(jsonBody(options.bodyLimitBytes, options.jsonMaxDepth));
  r.use(rateLimits(services));
  // After the body parsers (the request's read position must reach the route's async context);
  // before the idempotency claim, so a replayed write answer carries a position too.
  r.use(readConsistency(options.readRouter, { singleOperation: true }));
  // Last before the routes: a replay still counts against the rate limits and write slots.
  r.use(idempotentIssuing(services));

  const familyA = Router();
  familyA.use(userRoutes(services.auth, services.users, services.credentials, services.holderProofs));
  familyA.use(issuerRoutes(services.auth, services.issuerDids, services.credentials, services.zkp));
  familyA.use(schemaRoutes(services.auth, services.schemas));
  familyA.use(verifierRoutes(services.auth, services.verification, maxImageBytes));
  familyA.use(imageRoutes(services.auth, services.biometrics, maxImageBytes));
  r.use('/api', familyA);
  // Each router is entered only by the paths it can serve (src/rest/segment-gate.ts).
  r.use(gated(familyA));

  r.use(gated(keyRoutes(services.auth, services.keys)));
  r.use(gated(didRoutes(services.auth, services.dids)));
  r.use(gated(resolverRoutes(services.auth, services.dids)));
  r.use(gated(ledgerRoutes(services.auth, services.ledger)));
  r.use(gated(templateRoutes(services.auth, services.templates)));
  r.use(gated(credentialRoutes(services.auth, services.familyBCredentials)));
  r.use(gated(presentationRoutes(services.auth, services.presentations, services.signatures, services.zkpTokens)));
  // Routers built beside the services (the OpenID4VCI offers API), behind the same key and limits.
  for (const x of extra) r.use(gated(x));
  r.use(gated(publicRoutes(services.schemas, services.familyBCredentials)));
  r.use(gated(tokenStatusRoutes(services.tokenStatus)));
  r.use(gated(vcApiRoutes(services.auth, services.vcApi)));
  if (options.oid4vp) r.use(gated(oid4vpVerifierRoutes(services.auth, options.oid4vp)));
  return r;
}
