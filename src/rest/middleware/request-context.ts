import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../logging/logger';
import type { RestLocals } from '../context';

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is well-formed), a child logger,
 * and one access-log line. Only method, path, status and timing are logged: never headers,
 * query strings or bodies, which carry keys and signatures.
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID();
    const l = res.locals as RestLocals;
    l.requestId = requestId;
    // The child logger is made on first use: most requests log nothing below the access line, and
    // a pino child (bindings serialised, redaction set up) costs more than the rest of this middleware.
    let log: Logger | undefined;
    Object.defineProperty(l, 'log', { get: () => (log ??= logger.child({ requestId })), enumerable: true, configurable: true });
    l.family = 'B';
    res.setHeader('X-Request-Id', requestId);
    // The access line only where it is written (the level is fixed at start-up).
    if (logger.isLevelEnabled('info')) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        l.log.info({ method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
      });
    }
    next();
  };
}
