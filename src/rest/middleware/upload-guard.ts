import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../errors';

/** A process-wide byte budget for request bodies that are buffered whole (photo uploads). */
export class ByteBudget {
  private used = 0;
  constructor(readonly capacity: number) {}

  tryReserve(bytes: number): boolean {
    if (this.used + bytes > this.capacity) return false;
    this.used += bytes;
    return true;
  }

  release(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  get inUse(): number {
    return this.used;
  }
}

export interface UploadGuardOptions {
  readonly budget: ByteBudget;
  /** Largest multipart body one request may carry; also the share reserved when the length is unknown. */
  readonly maxRequestBytes: number;
  /** An upload that sends nothing for this long is answered 408 and disconnected. */
  readonly idleTimeoutMs: number;
  /** Writes an error in the transport's shape (REST family envelope or GraphQL errors). */
  readonly respond: (res: Response, e: AppError) => void;
}

const RETRY_AFTER_SECONDS = 5;

/**
 * Admits a multipart upload only if its declared size (or, without Content-Length, the largest
 * allowed) fits the global budget; otherwise 503 + Retry-After before any byte is read. The
 * share is held until the response is done, because the photos stay in memory until then.
 * While the body is arriving, an idle timer cuts off a stalled upload (it used to hold its
 * buffers for the 300 s default request timeout).
 */
export function uploadGuard(options: UploadGuardOptions) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!req.is('multipart/form-data')) return next();
    const raw = req.headers['content-length'];
    const declared = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
    if (declared !== undefined && declared > options.maxRequestBytes) {
      res.setHeader('Connection', 'close');
      return next(new AppError('PAYLOAD_TOO_LARGE', `upload is larger than ${options.maxRequestBytes} bytes`));
    }
    const share = declared ?? options.maxRequestBytes;
    if (!options.budget.tryReserve(share)) {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      res.setHeader('Connection', 'close');
      return next(new AppError('SERVICE_UNAVAILABLE', 'too many uploads in progress; retry later'));
    }
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      options.budget.release(share);
    };
    res.on('close', release);

    const onIdle = (): void => {
      if (req.complete) return;
      const socket = req.socket;
      if (!res.headersSent) {
        res.setHeader('Connection', 'close');
        options.respond(res, new AppError('REQUEST_TIMEOUT', `upload stalled for ${options.idleTimeoutMs} ms`));
      }
      // The stalled client may never read the answer: do not wait for it.
      setTimeout(() => socket.destroy(), 200).unref();
      release();
    };
    req.setTimeout(options.idleTimeoutMs, onIdle);
    // Once the body is in, the handler may take its time (face inference): no idle limit then.
    req.once('end', () => {
      req.off('timeout', onIdle);
      req.socket.setTimeout(0);
    });
    next();
  };
}
