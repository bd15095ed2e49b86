import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { Router } from 'express';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { graphqlUploadExpress } from 'graphql-upload-minimal';
import { isAppError } from '../errors';
import type { Logger } from '../logging/logger';
import type { AuthService } from '../services/auth.service';
import type { RestLocals } from '../rest/context';
import type { GraphQLContext } from './context';
import { createFormatError } from './format-error';
import { PLAYGROUND_HTML } from './playground';
import { inputGuardPlugin } from './input-guard';

export interface GraphqlEndpoint {
  readonly router: Router;
  stop(): Promise<void>;
}

/** Mounts Apollo at /graphql with API-key authentication in the context function. */
export async function createGraphqlEndpoint(deps: {
  schema: GraphQLSchema;
  auth: AuthService;
  logger: Logger;
  bodyLimitBytes: number;
  maxImageBytes: number;
}): Promise<GraphqlEndpoint> {
  const server = new ApolloServer<GraphQLContext>({
    schema: deps.schema,
    formatError: createFormatError(deps.logger),
    includeStacktraceInErrorResponses: false,
    introspection: true,
    plugins: [ApolloServerPluginLandingPageDisabled(), inputGuardPlugin<GraphQLContext>()],
    // main.ts owns graceful shutdown; Apollo's own signal handlers would race it.
    stopOnTerminationSignals: false,
  });
  await server.start();

  const router = Router();
  router.get('/graphql', (req, res, next) => {
    if (req.query['query'] === undefined && req.accepts(['application/json', 'text/html']) === 'text/html') {
      res.type('html').send(PLAYGROUND_HTML);
      return;
    }
    next();
  });
  router.use(
    '/graphql',
    // GraphQL multipart request spec (face photos); Apollo's CSRF check still applies to it.
    // The library truncates a file silently at maxFileSize; one byte more lets readUpload see the
    // file is over the limit and answer 413 like REST. busboy treats maxFiles as reached at the
    // limit, so it too is one above the two photos an operation takes.
    graphqlUploadExpress({ maxFileSize: deps.maxImageBytes + 1, maxFiles: 3 }),
    express.json({ limit: deps.bodyLimitBytes }),
    expressMiddleware(server, {
      context: async ({ req, res }): Promise<GraphQLContext> => {
        const l = res.locals as RestLocals;
        try {
          const actor = await deps.auth.authenticate(req.get('x-api-key'));
          return { actor, requestId: l.requestId, log: l.log };
        } catch (e) {
          if (isAppError(e) && e.code === 'UNAUTHENTICATED') {
            throw new GraphQLError(e.message, { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
          }
          throw e;
        }
      },
    }),
  );
  return { router, stop: () => server.stop() };
}
