import type { NextFunction, Request, Response } from 'express';
import { invalidInput } from '../errors';

/**
 * The media types Apollo Server can answer a single result with, spelt as it offers them (the
 * charset parameter takes part in the negotiation).
 */
const ANSWERABLE = ['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8'];

/**
 * Refuses, before anything runs, a request whose Accept header allows none of the types Apollo
 * answers with. Apollo itself negotiates only after executing the operation: a mutation sent with
 * `Accept: text/html` ran (a key was generated, a DID created) and the client was told 400, so a
 * retry did it again. The rule is Apollo's: no Accept header (or an empty one) means JSON.
 */
export function acceptGuard(req: Request, _res: Response, next: NextFunction): void {
  const accept = req.headers.accept;
  if ((req.method !== 'GET' && req.method !== 'POST') || accept === undefined || accept === '') return next();
  if (req.accepts(ANSWERABLE) !== false) return next();
  next(invalidInput('the Accept header must allow application/json or application/graphql-response+json'));
}
