import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { isAppError, isRetryLater } from '../../errors';
import { databaseBusyError } from '../../db/busy-errors';
import { type Oid4vciIssuerServices, isOid4vciError } from '../../oid4vc/issuer';
import type { WalletRequest } from '../../oid4vc/issuer/http-request';
import type { RateLimitService } from '../../services/rate-limit.service';
import { bodyParserError, jsonParser } from '../middleware/body';
import { hasBody } from '../middleware/authenticate-first';
import type { RestLocals } from '../context';

/** Wallet requests are small: a few parameters, proofs and at most a batch of JWTs. */
const FORM_LIMIT_BYTES = 16 * 1024;
const JSON_LIMIT_BYTES = 256 * 1024;

const clientIp = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** The URL the wallet addressed, from the configured public base (DPoP's htu is checked against it, never against Host). */
function walletRequest(req: Request, publicUrl: string): WalletRequest {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  return { method: req.method, url: `${publicUrl}${req.path}`, headers };
}

function sendError(res: Response, status: number, error: string, description: string): void {
  res.status(status).json({ error, error_description: description });
}

/** The one error mapping of the wallet-facing endpoints: OAuth bodies (RFC 6749 §5.2), never a stack trace. */
function walletErrors(err: unknown, req: Request, res: Response, next: NextFunction): void {
  // Mounted without a path (a path would show in the route table); other routes' errors pass on.
  if (!isWalletPath(req.path)) return next(err);
  if (res.headersSent) return;
  res.setHeader('Cache-Control', 'no-store');
  if (isOid4vciError(err)) {
    // One line per refusal (code and description, never a secret): why a wallet failed is otherwise invisible to the operator.
    (res.locals as RestLocals).log?.info({ oauthError: err.error, description: err.description }, 'OpenID4VCI request refused');
    for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
    return sendError(res, err.status, err.error, err.description);
  }
  const e = isAppError(err) ? err : (bodyParserError(err) ?? databaseBusyError(err));
  if (e && isRetryLater(e)) {
    res.setHeader('Retry-After', String(e.retryAfterSeconds));
    return sendError(res, e.status, 'temporarily_unavailable', e.message);
  }
  if (e && e.status < 500) return sendError(res, e.status === 401 ? 400 : e.status, 'invalid_request', e.message);
  if (e) return sendError(res, e.status, 'temporarily_unavailable', e.message);
  (res.locals as RestLocals).log?.error({ err }, 'unhandled error at an OpenID4VCI endpoint');
  sendError(res, 500, 'server_error', 'Server error');
}

/** Forms where OAuth says form (token, PAR), JSON where OID4VCI says JSON (credential, deferred, notification). */
function formBody() {
  const form = express.urlencoded({ extended: false, limit: FORM_LIMIT_BYTES, parameterLimit: 40, type: 'application/x-www-form-urlencoded' });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req)) return next();
    if (req.is('application/x-www-form-urlencoded')) return form(req, res, next);
    sendError(res, 400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
  };
}

function jsonBody() {
  const json = jsonParser(JSON_LIMIT_BYTES, 16);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req)) return next();
    if (req.is(['application/json', 'application/*+json'])) return json(req, res, next);
    sendError(res, 400, 'invalid_request', 'the body must be application/json');
  };
}

/** Paths of the wallet-facing endpoints (their errors are OAuth bodies). */
export const isWalletPath = (path: string): boolean => /^\/(oid4vc\/|\.well-known\/(openid-credential-issuer|oauth-authorization-server)\/oid4vc\/)/i.test(path);

const bodyObject = (req: Request): Record<string, unknown> => (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {});
const tenantOf = (req: Request): string => String(req.params['tenant'] ?? '');

/**
 * The wallet-facing OpenID4VCI 1.0 endpoints of every tenant's issuer (no API key: wallets
 * authenticate with codes, DPoP-bound access tokens and key proofs). Mounted before the API-key
 * router, like the OAuth token endpoint.
 */
export function oid4vciWalletRoutes(issuer: Oid4vciIssuerServices, limits: RateLimitService, publicUrl: string): Router {
  const r = Router();
  const noStore = (_req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  // Public endpoints share the per-address budget of every keyless route.
  const perAddress = async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    try {
      await limits.forClient(clientIp(req));
      next();
    } catch (e) {
      next(e);
    }
  };
  const base = '/oid4vc/:tenant';
  const sendMetadata = (load: (slug: string) => Promise<Record<string, unknown>>) => async (req: Request, res: Response) => {
    res.json(await load(tenantOf(req)));
  };
  r.get(['/.well-known/openid-credential-issuer/oid4vc/:tenant', `${base}/.well-known/openid-credential-issuer`], perAddress, sendMetadata(issuer.issuerMetadata));
  r.get(['/.well-known/oauth-authorization-server/oid4vc/:tenant', `${base}/.well-known/oauth-authorization-server`], perAddress, sendMetadata(issuer.authorizationServerMetadata));
  r.get(`${base}/vct/:configurationId`, perAddress, async (req, res) => {
    res.json(await issuer.typeMetadata(tenantOf(req), String(req.params['configurationId'] ?? '')));
  });
  r.get(`${base}/credential-offer/:handle`, perAddress, noStore, async (req, res) => {
    res.json(await issuer.offers.byReference(tenantOf(req), String(req.params['handle'] ?? '')));
  });
  r.post(`${base}/token`, perAddress, noStore, formBody(), async (req, res) => {
    res.json(await issuer.tokens.token(tenantOf(req), walletRequest(req, publicUrl), bodyObject(req)));
  });
  r.post(`${base}/par`, perAddress, noStore, formBody(), async (req, res) => {
    res.status(201).json(await issuer.authorization.pushedAuthorizationRequest(tenantOf(req), walletRequest(req, publicUrl), bodyObject(req)));
  });
  r.get(`${base}/authorize`, perAddress, noStore, async (req, res) => {
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.query)) if (typeof v === 'string') query[k] = v;
    const headers: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = typeof v === 'string' ? v : undefined;
    const { redirect } = await issuer.authorization.authorize(tenantOf(req), query, headers);
    res.redirect(302, redirect);
  });
  r.post(`${base}/nonce`, perAddress, noStore, async (req, res) => {
    res.json(await issuer.credentials.nonce(tenantOf(req)));
  });
  r.post(`${base}/credential`, perAddress, noStore, jsonBody(), async (req, res) => {
    const answer = await issuer.credentials.credential(tenantOf(req), walletRequest(req, publicUrl), req.body as unknown);
    res.status(answer.status).json(answer.body);
  });
  r.post(`${base}/deferred_credential`, perAddress, noStore, jsonBody(), async (req, res) => {
    const answer = await issuer.credentials.deferred(tenantOf(req), walletRequest(req, publicUrl), req.body as unknown);
    res.status(answer.status).json(answer.body);
  });
  r.post(`${base}/notification`, perAddress, noStore, jsonBody(), async (req, res) => {
    await issuer.credentials.notification(tenantOf(req), walletRequest(req, publicUrl), req.body as unknown);
    res.status(204).end();
  });
  r.use(walletErrors);
  return r;
}
