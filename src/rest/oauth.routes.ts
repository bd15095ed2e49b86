import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { isAppError, isRetryLater } from '../errors';
import { databaseBusyError } from '../db/busy-errors';
import { SCOPES } from '../domain/tenancy/actor';
import type { RateLimitService } from '../services/rate-limit.service';
import type { AccessTokens } from '../services/oauth/access-tokens';
import { OAuthError, isOAuthError } from '../services/oauth/oauth-error';
import type { OAuthService } from '../services/oauth/oauth.service';
import { hasBody } from './middleware/authenticate-first';
import { bodyParserError, jsonParser } from './middleware/body';
import type { RestLocals } from './context';

/** A token request is a handful of short parameters. */
const BODY_LIMIT_BYTES = 8 * 1024;
const PARAMETERS = ['grant_type', 'scope', 'client_id', 'client_secret'] as const;

/** The client's address: the socket peer, or what a trusted proxy says (CREDGATE_TRUST_PROXY, applied to express). */
const clientIp = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** RFC 6749 §2.3.1: Basic credentials are form-urlencoded before base64. */
function formDecode(s: string): string {
  return decodeURIComponent(s.replace(/\+/g, ' '));
}

/** The client id and secret of an `Authorization: Basic` header; undefined without one. */
function basicCredentials(req: Request): { id: string; secret: string } | undefined {
  const header = req.get('authorization');
  const m = header === undefined ? null : /^basic\s+(\S+)\s*$/i.exec(header.trim());
  if (header !== undefined && /^basic(\s|$)/i.test(header.trim()) && !m) throw new OAuthError('invalid_request', 'malformed Basic credentials');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError('invalid_request', 'malformed Basic credentials');
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_request', 'malformed Basic credentials');
  }
}

/** The four parameters, each a single string (RFC 6749 §3.2: a parameter must not repeat). */
function parameters(body: unknown): Partial<Record<(typeof PARAMETERS)[number], string>> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_request', 'the body must be a form or a JSON object');
  const out: Partial<Record<(typeof PARAMETERS)[number], string>> = {};
  for (const name of PARAMETERS) {
    const v = (body as Record<string, unknown>)[name];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw new OAuthError('invalid_request', `${name} must be given once, as a string`);
    out[name] = v;
  }
  return out;
}

/** application/x-www-form-urlencoded as RFC 6749 requires, or JSON; nothing else. */
function tokenBody() {
  const form = express.urlencoded({ extended: false, limit: BODY_LIMIT_BYTES, parameterLimit: 20, type: 'application/x-www-form-urlencoded' });
  const json = jsonParser(BODY_LIMIT_BYTES, 8);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req)) return next();
    if (req.is('application/x-www-form-urlencoded')) return form(req, res, next);
    if (req.is(['application/json', 'application/*+json'])) return json(req, res, next);
    next(new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded (or application/json)'));
  };
}

function sendOAuthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).json({ error, error_description: description });
}

/** The token endpoint's one error mapping: RFC 6749 §5.2 bodies, never a stack trace. */
function tokenErrors(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) return;
  if (isOAuthError(err)) {
    // RFC 6749 §5.2: a failed client authentication answers 401 with the scheme the client can use.
    if (err.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="credgate", charset="UTF-8"');
    return sendOAuthError(res, err.status, err.error, err.description);
  }
  const e = isAppError(err) ? err : (bodyParserError(err) ?? databaseBusyError(err));
  if (e && isRetryLater(e)) {
    res.setHeader('Retry-After', String(e.retryAfterSeconds));
    return sendOAuthError(res, e.status, 'temporarily_unavailable', e.message);
  }
  if (e && e.status < 500) return sendOAuthError(res, e.status === 401 ? 400 : e.status, 'invalid_request', e.message);
  if (e) return sendOAuthError(res, e.status, 'temporarily_unavailable', e.message);
  (res.locals as RestLocals).log?.error({ err }, 'unhandled error at the token endpoint');
  sendOAuthError(res, 500, 'server_error', 'Server error');
}

/**
 * OAuth 2.0 for machine clients: the client-credentials token endpoint (RFC 6749 §4.4), the
 * public keys that sign its tokens, and the authorization server metadata (RFC 8414).
 */
export function oauthRoutes(oauth: OAuthService, tokens: AccessTokens, limits: RateLimitService, publicUrl: string): Router {
  const r = Router();
  const publicLimit = async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    try {
      await limits.forClient(clientIp(req));
      next();
    } catch (e) {
      next(e);
    }
  };
  r.post(
    '/oauth/token',
    (_req: Request, res: Response, next: NextFunction) => {
      // RFC 6749 §5.1: token answers (and their refusals) are never cached.
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      next();
    },
    publicLimit,
    tokenBody(),
    async (req: Request, res: Response) => {
      const p = parameters(req.body as unknown);
      const basic = basicCredentials(req);
      if (basic && p.client_secret !== undefined) throw new OAuthError('invalid_request', 'use one client authentication method: Basic or client_secret in the body');
      if (basic && p.client_id !== undefined && p.client_id !== basic.id) throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials');
      const clientId = basic?.id ?? p.client_id;
      const clientSecret = basic?.secret ?? p.client_secret;
      if (p.grant_type === undefined) throw new OAuthError('invalid_request', 'grant_type is required');
      if (clientId === undefined || clientSecret === undefined) throw new OAuthError('invalid_client', 'client authentication is required (Basic, or client_id and client_secret)');
      res.json(await oauth.token({ grantType: p.grant_type, scope: p.scope, clientId, clientSecret, clientIp: clientIp(req) }));
    },
  );
  r.use('/oauth/token', tokenErrors);
  r.get('/oauth/jwks', publicLimit, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(tokens.jwks());
  });
  r.get('/.well-known/oauth-authorization-server', publicLimit, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(authorizationServerMetadata(publicUrl));
  });
  return r;
}

/** RFC 8414 metadata: what a client library needs to find the token endpoint and the keys. */
export function authorizationServerMetadata(publicUrl: string): Record<string, unknown> {
  return {
    issuer: publicUrl,
    token_endpoint: `${publicUrl}/oauth/token`,
    jwks_uri: `${publicUrl}/oauth/jwks`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...SCOPES],
    response_types_supported: [],
  };
}
