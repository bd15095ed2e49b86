import type { Request, Response } from 'express';
import type { Actor } from '../domain/tenancy/actor';
import type { Logger } from '../logging/logger';

/** A: Family A envelope; B: Family B `{ error }`; P: RFC 9457 problem details (VC-API). */
export type Family = 'A' | 'B' | 'P';

/** What middleware leaves on `res.locals` for handlers and the error mapper. */
export interface RestLocals {
  requestId: string;
  log: Logger;
  family: Family;
  actor?: Actor;
}

export function locals(res: Response): RestLocals {
  return res.locals as RestLocals;
}

export function actorOf(res: Response): Actor {
  const actor = locals(res).actor;
  // Routes only reach handlers through `authorize`, so a missing actor is a wiring bug.
  if (!actor) throw new Error('route handler reached without an authenticated actor');
  return actor;
}

/** Express lower-cases header names, so `header(req, 'publicKey')` matches any spelling. */
export function header(req: Request, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
