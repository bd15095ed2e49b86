import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../../errors';
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
    if (!hasBody(req) || req.is('multipart/form-data')) return next();
    if (!req.is(['application/json', 'application/*+json'])) {
      return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be application/json'));
    }
    parse(req, res, next);
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
  return undefined;
}
