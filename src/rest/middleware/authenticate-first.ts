import type { NextFunction, Request, Response } from 'express';
import type { AuthService } from '../../services/auth.service';
import type { RestLocals } from '../context';
import { credentialOf } from './credential';

/** Whether the request announces a body (Content-Length > 0 or chunked). */
export function hasBody(req: Request): boolean {
  const len = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (len !== undefined && len !== '0');
}

/**
 * Checks the API key before a single byte of the body is read: keyless clients used to make the
 * service buffer and parse 1 MiB each (200 of them → 1.1 GB RSS). A missing or unknown key is a
 * 401 with `Connection: close`, so the unread body is never parsed and the socket is let go.
 * The actor is left on res.locals; `authorize` and the GraphQL context reuse it (scopes are
 * still checked per operation there).
 */
export function authenticateFirst(auth: AuthService) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const l = res.locals as RestLocals;
    if (!hasBody(req) || l.actor) return next();
    try {
      l.actor = await auth.authenticate(credentialOf(req));
      next();
    } catch (e) {
      res.setHeader('Connection', 'close');
      next(e);
    }
  };
}
