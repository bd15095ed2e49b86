import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../../errors';
import { type ReadRouter, formatLsn, parseLsn } from '../../db/read-replica';
import { type RequestReadState, withRequest } from '../../db/read-replica/scope';

/** The response header of writes and the request header of reads (read-your-writes, issue 19). */
export const LSN_HEADER = 'Credgate-LSN';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface ReadConsistencyOptions {
  /**
   * REST: one operation per request, so a request that ran a read-only operation wrote nothing
   * and its answer needs no position. GraphQL: a document may mix a verification and a write,
   * so every successful POST carries one.
   */
  readonly singleOperation: boolean;
}

/**
 * Read-your-writes across the primary and the read replica. A request may send the position its
 * client last wrote at (`Credgate-LSN: 0/16B3748`, as answered by a write): its replica reads then
 * wait for the replica to replay it (bounded) or go to the primary. A successful write answers
 * with the primary's position after it committed. Mounted after the body parsers, so the request
 * state is in the async context of everything the route runs. Without a replica it does nothing.
 */
export function readConsistency(router: ReadRouter | undefined, options: ReadConsistencyOptions): RequestHandler {
  if (!router) return (_req, _res, next) => next();
  return (req: Request, res: Response, next: NextFunction): void => {
    const raw = req.get(LSN_HEADER);
    let clientLsn: bigint | undefined;
    if (raw !== undefined) {
      const parsed = parseLsn(raw);
      if (parsed === null) return next(new AppError('INVALID_INPUT', `${LSN_HEADER} must be a WAL position as answered by a write, such as 0/16B3748`));
      clientLsn = parsed;
    }
    const state: RequestReadState = { clientLsn, readOnly: false };
    if (!READ_METHODS.has(req.method)) stampPosition(res, state, router, options.singleOperation);
    withRequest(state, () => next());
  };
}

/**
 * Adds Credgate-LSN to a successful write's answer: the primary's position read after the
 * handler finished, so at or after the commit of everything it wrote. The answer is held for that
 * one (shared, trivial) query; if it fails the answer goes out without the header.
 */
function stampPosition(res: Response, state: RequestReadState, router: ReadRouter, singleOperation: boolean): void {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    if ((singleOperation && state.readOnly) || res.headersSent || res.statusCode >= 300) return end(...args);
    void router
      .primaryLsn()
      .then(
        (lsn) => {
          if (!res.headersSent) res.setHeader(LSN_HEADER, formatLsn(lsn));
        },
        () => undefined,
      )
      .finally(() => end(...args));
    return res;
  }) as Response['end'];
}
