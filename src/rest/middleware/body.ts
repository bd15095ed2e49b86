import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../../errors';
import { containsNul, nulRefused } from '../validate';
import { hasBody } from './authenticate-first';
import { JsonTooDeepError, jsonTextTooDeep, jsonTooDeep } from './json-depth';

/**
 * JSON bodies only: a body of another media type is refused with 415 before parsing, so a
 * client mistake never reaches a handler as an empty object. Multipart routes mount their own
 * parser ahead of this one.
 */
export function jsonBody(limitBytes: number, maxDepth: number) {
  const parse = jsonParser(limitBytes, maxDepth);
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

/** express.json with a nesting limit checked on the raw bytes before JSON.parse runs. */
export function jsonParser(limitBytes: number, maxDepth: number) {
  return express.json({
    limit: limitBytes,
    strict: true,
    type: ['application/json', 'application/*+json'],
    verify: (_req, _res, buf) => {
      if (jsonTextTooDeep(buf, maxDepth)) throw new JsonTooDeepError(maxDepth);
    },
  });
}

/** Translates body-parser's errors (which carry `type`) into AppErrors. */
export function bodyParserError(err: unknown): AppError | undefined {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.verify.failed' && err instanceof JsonTooDeepError) return jsonTooDeep(err.maxDepth);
  if (type === 'entity.parse.failed') return new AppError('MALFORMED_JSON', 'request body is not valid JSON');
  if (type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'request body is too large');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding');
  }
  if (type === 'request.aborted' || type === 'request.size.invalid') return new AppError('INVALID_INPUT', 'request body was incomplete');
  return httpClientError(err);
}

/**
 * Errors that HTTP libraries mark as the client's (http-errors style `status` 4xx): a body that
 * is not the gzip it claims, a path with broken percent-encoding (the router's URIError). They
 * were 500s. The library's message is not echoed: it can carry internals.
 */
function httpClientError(err: unknown): AppError | undefined {
  const e = err as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  if (status === undefined || status < 400 || status > 499) return undefined;
  if (status === 408) return new AppError('REQUEST_TIMEOUT', 'the request took too long to arrive');
  if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'request body is too large');
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding');
  return new AppError('INVALID_INPUT', err instanceof URIError ? 'the path is not valid percent-encoding' : 'malformed request');
}
