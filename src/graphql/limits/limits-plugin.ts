import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { AppError } from '../../errors';
import type { GraphqlLimits } from './limits';
import { measureOperation } from './measure';

export type { GraphqlLimits } from './limits';

function tooComplex(message: string): GraphQLError {
  const e = new AppError('QUERY_TOO_COMPLEX', message);
  // http.status is read (and removed) by Apollo; originalError lets formatError keep the code.
  return new GraphQLError(message, { originalError: e, extensions: { code: e.code, http: { status: e.status } } });
}

/**
 * Refuses an operation whose depth, alias count or cost is over the limit after it is parsed,
 * validated and chosen, and before any resolver runs: a refused request creates nothing.
 */
export function limitsPlugin<T extends object>(limits: GraphqlLimits): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ document, operation }) {
          // Apollo has already refused a request without a resolvable operation.
          if (!operation) return;
          const m = measureOperation(document, operation);
          if (m.depth > limits.maxDepth) throw tooComplex(`query depth ${m.depth} exceeds the limit of ${limits.maxDepth}`);
          if (m.aliases > limits.maxAliases) throw tooComplex(`query uses ${m.aliases} aliases; the limit is ${limits.maxAliases}`);
          if (m.cost > limits.maxCost) throw tooComplex(`query cost ${m.cost} exceeds the limit of ${limits.maxCost}`);
        },
      };
    },
  };
}
