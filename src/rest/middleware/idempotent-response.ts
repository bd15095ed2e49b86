import type { Response } from 'express';
import { REPLAYED_HEADER, type StoredResponse } from '../../services/idempotency.service';
import type { Logger } from '../../logging/logger';

/** Response headers that describe the body; they are stored and replayed with it. */
const KEPT_HEADERS = ['content-type', 'content-disposition', 'location'];

/**
 * Hands the answer to `store` before the client sees it: a client that repeats the request as
 * soon as it has the answer must get the replay, never 409 IN_PROGRESS. Every answer of these
 * routes (the handler's, and the error handler's) goes through `res.send`.
 */
export function captureResponse(res: Response, store: (response: StoredResponse) => Promise<void>, log: Logger | undefined): void {
  const original = res.send;
  res.send = function send(this: Response, chunk?: unknown): Response {
    // An object goes through res.json, which calls send again with the serialised text.
    if (chunk !== null && typeof chunk === 'object' && !(chunk instanceof Uint8Array)) return original.call(this, chunk);
    res.send = original;
    const body = chunk === undefined || chunk === null ? Buffer.alloc(0) : Buffer.from(chunk as string | Uint8Array);
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const v = res.getHeader(name);
      if (v !== undefined) headers[name] = String(v);
    }
    const deliver = (): void => {
      try {
        original.call(res, chunk);
      } catch (err) {
        // Called outside the request's promise chain: a throw here must not become an unhandled rejection.
        log?.error({ err }, 'could not send the idempotent response');
      }
    };
    store({ status: res.statusCode, headers, body }).then(deliver, (err: unknown) => {
      // The work is done (e.g. the credential is issued): answer anyway; the key stays in flight
      // until its lease ends (docs/API.md, Idempotency-Key).
      log?.error({ err }, 'could not store the idempotent response');
      deliver();
    });
    return res;
  };
}

/** Answers a repeat with the stored response, marked as a replay. */
export function replayResponse(res: Response, stored: StoredResponse): void {
  res.status(stored.status);
  for (const [name, value] of Object.entries(stored.headers)) res.setHeader(name, value);
  res.setHeader(REPLAYED_HEADER, 'true');
  res.setHeader('Content-Length', String(stored.body.length));
  res.end(stored.body);
}
