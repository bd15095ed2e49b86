import type { AuthChecker } from 'type-graphql';
import { AppError } from '../errors';
import { type Scope, hasAnyScope } from '../domain/tenancy/actor';
import type { GraphQLContext } from './context';

/** `@Authorized('issuer', ...)`: the caller needs one of the scopes (admin always passes). */
export const authChecker: AuthChecker<GraphQLContext, Scope> = ({ context }, scopes) => {
  if (!hasAnyScope(context.actor, scopes)) {
    throw new AppError('FORBIDDEN', `this operation needs one of the scopes: ${scopes.join(', ')}`);
  }
  return true;
};
