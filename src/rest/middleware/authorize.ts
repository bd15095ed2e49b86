import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../errors';
import { type Scope, hasAnyScope } from '../../domain/tenancy/actor';
import type { AuthService } from '../../services/auth.service';
import type { RestLocals } from '../context';
import { credentialOf } from './credential';

/**
 * Authenticates the API key (X-API-Key, any capitalisation) and checks that the caller holds one
 * of `scopes` (an empty list admits any authenticated caller).
 */
export function authorize(auth: AuthService, scopes: readonly Scope[]) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const l = res.locals as RestLocals;
      // authenticateFirst already checked this request's key when it carried a body.
      const actor = l.actor ?? (await auth.authenticate(credentialOf(req)));
      if (!hasAnyScope(actor, scopes)) {
        throw new AppError('FORBIDDEN', `this operation needs one of the scopes: ${scopes.join(', ')}`);
      }
      l.actor = actor;
      next();
    } catch (e) {
      next(e);
    }
  };
}
