import { AppError } from './app-error';
import type { ErrorCode } from './codes';

/**
 * A failure the client should retry after a pause: a rate limit (RATE_LIMITED, 429) or a busy
 * shared resource (SERVICE_UNAVAILABLE, 503), or a keyed request still in flight (IDEMPOTENCY_IN_PROGRESS, 409). REST sends `Retry-After`; GraphQL puts
 * `retryAfter` (seconds) in the error's extensions.
 */
export class RetryLaterError extends AppError {
  readonly retryAfterSeconds: number;

  constructor(code: Extract<ErrorCode, 'RATE_LIMITED' | 'SERVICE_UNAVAILABLE' | 'IDEMPOTENCY_IN_PROGRESS'>, message: string, retryAfterSeconds: number) {
    super(code, message);
    this.name = 'RetryLaterError';
    // Retry-After is a whole number of seconds; never tell a client to retry "now" in a loop.
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

export function isRetryLater(e: unknown): e is RetryLaterError {
  return e instanceof RetryLaterError;
}
