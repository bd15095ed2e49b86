import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../errors';
import type { Family, RestLocals } from '../context';
import type { RouteTable } from '../route-table';
import { hasBody } from './authenticate-first';
import { sendAppError } from './error-handler';

/**
 * A known path asked with a method it does not serve answers 405 with `Allow`, in the envelope of
 * the path's family, instead of falling through to 404 (or, for `GET /credentials/verify`, into
 * `GET /credentials/:credentialId`). It runs before authentication: which methods a path takes is
 * public (docs/API.md), and no body is read for a request that cannot succeed.
 *
 * OPTIONS on a known path answers 204 with the same `Allow` (express's own answer would also
 * list the methods of `:param` routes the path only looks like). `table` is called per request
 * (the caller caches it).
 */
export function methodNotAllowed(table: () => RouteTable, familyOf: (path: string) => Family) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const allowed = table().allowed(req.path);
    if (allowed === undefined || allowed === '*' || allowed.has(req.method)) return next();
    const allow = [...allowed, 'OPTIONS'].join(', ');
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', allow);
      res.status(204).end();
      return;
    }
    (res.locals as RestLocals).family = familyOf(req.path);
    res.setHeader('Allow', allow);
    if (hasBody(req)) res.setHeader('Connection', 'close');
    sendAppError(res, new AppError('METHOD_NOT_ALLOWED', `method ${req.method} is not allowed here; allowed: ${allow}`));
  };
}
