import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, visit } from 'graphql';
import { containsNul } from '../rest/validate';

/**
 * Refuses a NUL character (U+0000) in any variable or string literal before execution:
 * PostgreSQL text and jsonb cannot store it, and no identifier contains one. The same rule as the
 * REST body reader; the error is a client error (INVALID_INPUT, 400) through format-error.
 */
export function inputGuardPlugin<T extends object>(): ApolloServerPlugin<T> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          let literal = false;
          visit(document, {
            [Kind.STRING](node) {
              if (node.value.includes('\u0000')) literal = true;
            },
          });
          if (literal || containsNul(request.variables ?? {})) {
            throw new GraphQLError('text must not contain NUL (U+0000) characters', { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
          }
        },
      };
    },
  };
}
