import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../../errors';
import { containsNul, nulRefused } from '../validate';

function hasBody(req: Request): boolean {
  const len = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (len !== undefined && len !== '0');
}

/**
 * JSON bodies only: a body of another media type is refused with 415 before parsing, so a
 * client mistake never reaches a handler as an empty object. Multipart routes mount their own
 * parser ahead of this one.
 */
export function jsonBody(limitBytes: number) {
  const parse = express.json({ limit: limitBytes, strict: true, type: ['application/json', 'application/*+json'] });
  return (req: Request, res: Response, next: NextFunction): void => {
    // A NUL in the path or query (%00) can reach a text column; no identifier contains one.
    if (/%00/.test(req.originalUrl)) return next(nulRefused());
    if (!hasBody(req) || req.is('multipart/form-data')) return next();
    if (!req.is(['application/json', 'application/*+json'])) {
      return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be application/json'));
    }
    parse(req, res, (err?: unknown) => {
      if (err === undefined && containsNul(req.body)) return next(nulRefused());
      next(err);
    });
  };
}

/** Translates body-parser's errors (which carry `type`) into AppErrors. */
export function bodyParserError(err: unknown): AppError | undefined {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return new AppError('MALFORMED_JSON', 'request body is not valid JSON');
  if (type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'request body is too large');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding');
  }
  if (type === 'request.aborted' || type === 'request.size.invalid') return new AppError('INVALID_INPUT', 'request body was incomplete');
  // Any other client error of the body readers (http-errors with expose: e.g. a body that is not
  // in the Content-Encoding it claims, which zlib fails to inflate) is the client's mistake too.
  const status = (err as { status?: unknown; expose?: unknown } | null)?.status;
  if ((err as { expose?: unknown } | null)?.expose === true && typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'request body is too large');
    if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding');
    return new AppError('INVALID_INPUT', 'request body could not be read (check Content-Encoding and Content-Length)');
  }
  return undefined;
}
