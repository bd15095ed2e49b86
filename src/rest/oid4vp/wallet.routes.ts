import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { isAppError, isRetryLater } from '../../errors';
import { databaseBusyError } from '../../db/busy-errors';
import { type Oid4vpVerifierService, WalletError, isWalletError } from '../../oid4vc/verifier';
import type { RateLimitService } from '../../services/rate-limit.service';
import { bodyParserError } from '../middleware/body';
import type { RestLocals } from '../context';

/** A vp_token of a few credentials, or its JWE: bounded well below the API's JSON limit. */
const BODY_LIMIT_BYTES = 512 * 1024;

const clientIp = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** OID4VP 1.0 §5.10 / §8.2: wallets post forms; JSON is accepted too. Nothing else. */
function walletBody() {
  const form = express.urlencoded({ extended: false, limit: BODY_LIMIT_BYTES, parameterLimit: 20, type: 'application/x-www-form-urlencoded' });
  const json = express.json({ limit: BODY_LIMIT_BYTES, type: ['application/json'] });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.is('application/x-www-form-urlencoded')) return form(req, res, next);
    if (req.is('application/json')) return json(req, res, next);
    if (req.headers['content-length'] === '0' || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)) return next();
    next(new WalletError('invalid_request', 'the body must be application/x-www-form-urlencoded'));
  };
}

/** Each parameter a single string (a repeated form parameter arrives as an array). */
function params(body: unknown): Record<string, string> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new WalletError('invalid_request', 'the body must be a form');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (typeof v === 'string') out[k] = v;
    else if (k === 'vp_token' && typeof v === 'object' && v !== null && !Array.isArray(v)) out[k] = JSON.stringify(v);
    else throw new WalletError('invalid_request', `${k} must be given once, as a string`);
  }
  return out;
}

/** The wallet endpoints' one error mapping: `{ error, error_description }`, never a stack trace. */
function walletErrors(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) return;
  res.setHeader('Cache-Control', 'no-store');
  if (isWalletError(err)) {
    res.status(err.status).json({ error: err.error, error_description: err.description });
    return;
  }
  const e = isAppError(err) ? err : (bodyParserError(err) ?? databaseBusyError(err));
  if (e && isRetryLater(e)) {
    res.setHeader('Retry-After', String(e.retryAfterSeconds));
    res.status(503).json({ error: 'temporarily_unavailable', error_description: e.message });
    return;
  }
  if (e && e.status < 500) {
    res.status(400).json({ error: 'invalid_request', error_description: e.message });
    return;
  }
  if (e) {
    res.status(e.status).json({ error: 'temporarily_unavailable', error_description: e.message });
    return;
  }
  (res.locals as RestLocals).log?.error({ err }, 'unhandled error at an OID4VP wallet endpoint');
  res.status(500).json({ error: 'server_error', error_description: 'Server error' });
}

/**
 * The wallet-facing OID4VP endpoints: the request object by reference (GET, or POST with
 * wallet_nonce) and the response endpoint. No API key: a wallet is anyone holding the link; the
 * request id, state and nonce are unguessable and single-use. Rate-limited per client address.
 */
export function oid4vpWalletRoutes(verifier: Oid4vpVerifierService, limits: RateLimitService): Router {
  const r = Router();
  const perAddress = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      await limits.forClient(clientIp(req));
      next();
    } catch (e) {
      next(e);
    }
  };
  const sendObject = (res: Response, jwt: string): void => {
    res.type('application/oauth-authz-req+jwt').send(jwt);
  };
  // Each route ends in the error mapping, so the route table sees exactly these three endpoints.
  r.get(
    '/oid4vp/request-objects/:requestId',
    perAddress,
    async (req: Request, res: Response) => {
      sendObject(res, await verifier.requestObject(String(req.params['requestId'])));
    },
    walletErrors,
  );
  r.post(
    '/oid4vp/request-objects/:requestId',
    perAddress,
    walletBody(),
    async (req: Request, res: Response) => {
      const p = params(req.body as unknown);
      sendObject(res, await verifier.requestObject(String(req.params['requestId']), p['wallet_nonce']));
    },
    walletErrors,
  );
  r.post(
    '/oid4vp/responses/:requestId',
    perAddress,
    walletBody(),
    async (req: Request, res: Response) => {
      const p = params(req.body as unknown);
      const outcome = await verifier.respond(String(req.params['requestId']), p);
      if (!outcome.verified) throw new WalletError('access_denied', 'the presentation did not verify; the relying party has the details');
      res.json({});
    },
    walletErrors,
  );
  return r;
}
