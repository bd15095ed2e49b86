import type { Response } from 'express';
import type { AppError } from '../errors';

/** Family A success envelope: { success, data, message?, status }. */
export function sendA(res: Response, status: number, data: unknown, message?: string): void {
  res.status(status).json(message === undefined ? { success: true, data, status } : { success: true, data, message, status });
}

export function familyAError(e: AppError): Record<string, unknown> {
  return {
    success: false,
    status: e.status,
    message: e.message,
    code: e.code,
    ...(e.details ? { details: e.details } : {}),
  };
}

/** Family B errors are a single `error` string (interface reference, section 7). */
export function familyBError(e: AppError): Record<string, unknown> {
  return { error: e.message };
}
