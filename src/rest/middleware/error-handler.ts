import type { NextFunction, Request, Response } from 'express';
import { AppError, authChallenge, isAppError, isRetryLater } from '../../errors';
import { databaseBusyError } from '../../db/busy-errors';
import { familyAError, familyBError, problemDetails } from '../envelopes';
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
      const parsed = bodyParserError(err) ?? databaseBusyError(err);
      if (parsed) e = parsed;
      else {
        l.log?.error({ err }, 'unhandled error');
        e = new AppError('INTERNAL', 'Server error');
      }
    }
    if (res.headersSent) return;
    sendAppError(res, e);
  };
}

/** Writes an AppError in the envelope of the route's family (also used outside the error chain). */
export function sendAppError(res: Response, e: AppError): void {
  const l = res.locals as RestLocals;
  if (isRetryLater(e)) res.setHeader('Retry-After', String(e.retryAfterSeconds));
  const challenge = authChallenge(e);
  if (challenge) res.setHeader('WWW-Authenticate', challenge);
  if (l.family === 'P') {
    res.status(e.status).type('application/problem+json').send(JSON.stringify(problemDetails(e)));
    return;
  }
  res.status(e.status).json(l.family === 'A' ? familyAError(e) : familyBError(e));
}

export function notFoundHandler() {
  return (_req: Request, _res: Response, next: NextFunction): void => {
    next(new AppError('NOT_FOUND', 'Not found'));
  };
}
