import type { Response } from 'express';
import { type AppError, publicDetails } from '../errors';

/** Family A success envelope: { success, data, message?, status }. */
export function sendA(res: Response, status: number, data: unknown, message?: string): void {
  res.status(status).json(message === undefined ? { success: true, data, status } : { success: true, data, message, status });
}

export function familyAError(e: AppError): Record<string, unknown> {
  const details = publicDetails(e);
  return {
    success: false,
    status: e.status,
    message: e.message,
    code: e.code,
    ...(details ? { details } : {}),
  };
}

/**
 * Family B errors: the interface reference (section 7) only shows `{ error }`, so `error` stays the
 * first field (clients reading just it keep working); `code` and the per-field `details` follow,
 * the same ones GraphQL puts in `extensions`.
 */
export function familyBError(e: AppError): Record<string, unknown> {
  const details = publicDetails(e);
  return { error: e.message, code: e.code, ...(details ? { details } : {}) };
}

/** `INVALID_INPUT` -> `Invalid input`: the problem title of an error code. */
const titleOf = (code: string): string => code.charAt(0) + code.slice(1).toLowerCase().replace(/_/g, ' ');

/**
 * RFC 9457 problem details, the error body of the VC-API routes (served as
 * `application/problem+json`): `type` names the error code, `title` summarises it, `detail` is the
 * message; `code` and per-field `details` follow as in the other families.
 */
export function problemDetails(e: AppError): Record<string, unknown> {
  const details = publicDetails(e);
  return { type: `urn:credgate:error:${e.code}`, title: titleOf(e.code), status: e.status, detail: e.message, code: e.code, ...(details ? { details } : {}) };
}
