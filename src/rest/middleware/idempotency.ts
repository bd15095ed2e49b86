import type { NextFunction, Request, Response } from 'express';
import { invalidInput } from '../../errors';
import type { Services } from '../../services';
import { IDEMPOTENCY_HEADER, authorityOf, fingerprintOf, parseIdempotencyKey } from '../../services/idempotency.service';
import type { RestLocals } from '../context';
import { optionalActor } from './optional-actor';
import { captureResponse, replayResponse } from './idempotent-response';

/**
 * The issuing POSTs that honour `Idempotency-Key` (Family A bare and under /api). Other routes
 * ignore the header. Express matches case-insensitively and ignores one trailing slash; so do these.
 */
const ISSUING_PATHS = [
  /^(\/api)?\/issuer\/verifiableCredential\/?$/i,
  /^(\/api)?\/issuer\/createSchema\/?$/i,
  /^(\/api)?\/issuer\/createZkp\/?$/i,
  /^\/credentials\/?$/i,
  /^\/vc-templates\/?$/i,
  /^\/dids\/?$/i,
  /^\/create-vp\/?$/i,
  /^\/createZkpToken\/?$/i,
];

/** Family A takes the holder's consent in headers: they are part of the request. */
const REQUEST_HEADERS = ['did', 'publickey', 'usersignature'];

/** One spelling per route: /api/x, /X and /x/ are the same request. */
function routeKey(path: string): string {
  return path.toLowerCase().replace(/\/$/, '').replace(/^\/api(?=\/)/, '');
}

/**
 * `Idempotency-Key` on issuing POSTs: the first request runs and its answer is stored; a repeat
 * replays it (`Idempotent-Replayed: true`). Runs after authentication, body parsing and the
 * rate limits, right before the route.
 */
export function idempotentIssuing(services: Services) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method !== 'POST' || req.headers[IDEMPOTENCY_HEADER] === undefined || !ISSUING_PATHS.some((p) => p.test(req.path))) {
      next();
      return;
    }
    try {
      const key = parseIdempotencyKey(req.headers[IDEMPOTENCY_HEADER])!;
      const actor = await optionalActor(services.auth, req, res);
      if (!actor) {
        next();
        return;
      }
      // The body of a multipart request is read by the route, after this point: no fingerprint.
      if (req.is('multipart/form-data')) throw invalidInput('Idempotency-Key is only supported on JSON requests');
      const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : undefined;
      const extra: Record<string, string | undefined> = { query };
      for (const h of REQUEST_HEADERS) extra[h] = req.get(h);
      const fingerprint = fingerprintOf({ method: req.method, path: routeKey(req.path), body: req.body, extra });
      const scope = { tenantId: actor.tenantId, apiKeyId: actor.apiKeyId, key };
      // Before the route's scope check: a stored answer goes only to the authority that earned it.
      const claim = await services.idempotency.begin(scope, fingerprint, authorityOf(actor));
      if (claim.kind === 'replay') {
        replayResponse(res, claim.response);
        return;
      }
      captureResponse(res, (response) => services.idempotency.finish(scope, claim.owner, response), (res.locals as RestLocals).log);
      next();
    } catch (e) {
      next(e);
    }
  };
}
