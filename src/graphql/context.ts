import type { Actor } from '../domain/tenancy/actor';
import type { Logger } from '../logging/logger';

export interface GraphQLContext {
  readonly actor: Actor;
  readonly requestId: string;
  readonly log: Logger;
}
