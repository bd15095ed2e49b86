import type { NextFunction, Request, Response } from 'express';
import { AppError, isAppError } from '../../errors';
import { familyAError, familyBError } from '../envelopes';
import type { RestLocals } from '../context';
import { bodyParserError } from './body';

/** Maps any error to the envelope of the family the route belongs to. The one REST mapping. */
export function errorHandler() {
  // Express recognises error middleware by its four parameters.
  return (err: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const l = res.locals as RestLocals;
    let e: AppError;
    if (isAppError(err)) e = err;
    else {
      const parsed = bodyParserError(err) ?? pathDecodeError(err);
      if (parsed) e = parsed;
      else {
        l.log?.error({ err }, 'unhandled error');
        e = new AppError('INTERNAL', 'Server error');
      }
    }
    if (res.headersSent) return;
    if (e.code === 'UNAUTHENTICATED') res.setHeader('WWW-Authenticate', 'ApiKey header="X-API-Key"');
    res.status(e.status).json(l.family === 'A' ? familyAError(e) : familyBError(e));
  };
}

/** The router's own 400 for a path parameter that is not valid percent-encoding (`/dids/%`). */
function pathDecodeError(err: unknown): AppError | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  if (err instanceof URIError && status === 400) return new AppError('INVALID_INPUT', 'a path segment is not valid percent-encoding');
  return undefined;
}

export function notFoundHandler() {
  return (_req: Request, _res: Response, next: NextFunction): void => {
    next(new AppError('NOT_FOUND', 'Not found'));
  };
}
