import type { Request, Response } from 'express';
import type { Actor } from '../../domain/tenancy/actor';
import type { AuthService } from '../../services/auth.service';
import type { RestLocals } from '../context';
import { credentialOf } from './credential';

/**
 * The caller for middleware that only needs to know who is asking (rate limits, idempotency):
 * the actor `authenticateFirst` already set, else the key looked up once and remembered; none when
 * the key is missing or wrong, because the route's own `authorize` answers 401/403 (and an unknown
 * path 404) exactly as without the middleware.
 */
export async function optionalActor(auth: AuthService, req: Request, res: Response): Promise<Actor | undefined> {
  const l = res.locals as RestLocals;
  if (l.actor) return l.actor;
  try {
    return await auth.authenticate(credentialOf(req));
  } catch {
    return undefined;
  }
}
