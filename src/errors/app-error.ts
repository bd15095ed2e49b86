import { type ErrorCode, statusOf } from './codes';

/** One detail per offending field, so a client can point at each bad attribute. */
export interface FieldIssue {
  field: string;
  message: string;
}

/**
 * The one base class of every expected failure. Messages are written for the API client: they
 * must never contain key material, stack traces or SQL.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: readonly FieldIssue[] | undefined;

  constructor(code: ErrorCode, message: string, details?: readonly FieldIssue[]) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = statusOf(code);
    this.details = details;
  }
}

export const invalidInput = (message: string, details?: readonly FieldIssue[]): AppError =>
  new AppError('INVALID_INPUT', message, details);

export const notFound = (what: string): AppError => new AppError('NOT_FOUND', `${what} not found`);

export const conflict = (message: string): AppError => new AppError('CONFLICT', message);

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
