import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { graphqlUploadExpress } from 'graphql-upload-minimal';
import { AppError, authChallenge, isAppError, isRetryLater, publicDetails } from '../errors';
import type { IdempotencyService } from '../services/idempotency.service';
import { graphqlIdempotency } from './idempotency';
import { acceptGuard } from './accept-guard';
import { databaseBusyError } from '../db/busy-errors';
import { authenticateFirst } from '../rest/middleware/authenticate-first';
import { bodyParserError, jsonParser } from '../rest/middleware/body';
import { type ByteBudget, uploadGuard } from '../rest/middleware/upload-guard';
import { jsonTooDeep, valueTooDeep } from '../rest/middleware/json-depth';
import type { Logger } from '../logging/logger';
import type { AuthService } from '../services/auth.service';
import type { RestLocals } from '../rest/context';
import type { GraphQLContext } from './context';
import { createFormatError } from './format-error';
import { type GraphqlLimits, limitsPlugin } from './limits/limits-plugin';
import { graphiqlRoutes } from './graphiql/routes';
import { inputGuardPlugin } from './input-guard';
import { credentialOf } from '../rest/middleware/credential';
import { readConsistency } from '../rest/middleware/read-consistency';
import type { ReadRouter } from '../db/read-replica';

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
  jsonMaxDepth: number;
  maxImageBytes: number;
  limits: GraphqlLimits;
  uploadBudget: ByteBudget;
  maxUploadBytes: number;
  uploadIdleTimeoutMs: number;
  idempotency: IdempotencyService;
  /** GraphiQL on GET /graphql; off: a browser GET is 404. */
  playground: boolean;
  /** Off: introspection queries (`__schema`, `__type`) are refused as invalid. */
  introspection: boolean;
  /** The read replica's router (CREDGATE_READ_DATABASE_URL): the Credgate-LSN header in and out, as on REST. */
  readRouter?: ReadRouter | undefined;
}): Promise<GraphqlEndpoint> {
  const server = new ApolloServer<GraphQLContext>({
    schema: deps.schema,
    formatError: createFormatError(deps.logger),
    includeStacktraceInErrorResponses: false,
    introspection: deps.introspection,
    plugins: [ApolloServerPluginLandingPageDisabled(), limitsPlugin<GraphQLContext>(deps.limits), inputGuardPlugin<GraphQLContext>()],
    parseOptions: { maxTokens: deps.limits.maxTokens },
    // main.ts owns graceful shutdown; Apollo's own signal handlers would race it.
    stopOnTerminationSignals: false,
  });
  await server.start();

  const router = Router();
  router.use(graphiqlRoutes({ enabled: deps.playground, notFound: sendGraphqlError }));
  router.use(
    '/graphql',
    // The key first, then the upload budget, then the body (see authenticateFirst).
    authenticateFirst(deps.auth),
    uploadGuard({ budget: deps.uploadBudget, maxRequestBytes: deps.maxUploadBytes, idleTimeoutMs: deps.uploadIdleTimeoutMs, respond: sendGraphqlError }),
    // GraphQL multipart request spec (face photos); Apollo's CSRF check still applies to it.
    // The library truncates a file silently at maxFileSize; one byte more lets readUpload see the
    // file is over the limit and answer 413 like REST. busboy treats maxFiles as reached at the
    // limit, so it too is one above the two photos an operation takes.
    clientErrorsOnly(graphqlUploadExpress({ maxFileSize: deps.maxImageBytes + 1, maxFiles: 3 })),
    // graphql-upload parses the multipart `operations` field itself, so its depth is checked here.
    (req: Request, _res: Response, next: NextFunction) => {
      next(req.is('multipart/form-data') && valueTooDeep(req.body, deps.jsonMaxDepth) ? jsonTooDeep(deps.jsonMaxDepth) : undefined);
    },
    jsonParser(deps.bodyLimitBytes, deps.jsonMaxDepth),
    // Before the idempotency claim and Apollo: Apollo checks Accept only after running the operation.
    acceptGuard,
    // One document may hold a write and a verification: every successful POST carries a position.
    readConsistency(deps.readRouter, { singleOperation: false }),
    graphqlIdempotency(deps.auth, deps.idempotency, deps.limits.maxTokens),
    expressMiddleware(server, {
      context: async ({ req, res }): Promise<GraphQLContext> => {
        const l = res.locals as RestLocals;
        try {
          const actor = l.actor ?? (await deps.auth.authenticate(credentialOf(req)));
          return { actor, requestId: l.requestId, log: l.log };
        } catch (e) {
          if (isAppError(e) && (e.code === 'UNAUTHENTICATED' || e.code === 'INVALID_TOKEN' || e.code === 'INVALID_INPUT')) {
            const challenge = authChallenge(e);
            const headers = new Map(challenge ? [['www-authenticate', challenge]] : []);
            throw new GraphQLError(e.message, { originalError: e, extensions: { code: e.code, status: e.status, http: { status: e.status, headers } } });
          }
          throw e;
        }
      },
    }),
  );
  router.use('/graphql', graphqlBodyErrors);
  return { router, stop: () => server.stop() };
}

/**
 * graphql-upload only parses the request body, so whatever it fails on (busboy's "Unexpected end
 * of form", a bad boundary) is a malformed request, not a server fault.
 */
function clientErrorsOnly(mw: (req: Request, res: Response, next: NextFunction) => void) {
  return (req: Request, res: Response, next: NextFunction): void => {
    mw(req, res, (err?: unknown) => {
      if (err === undefined || err === null) return next();
      next(isAppError(err) ? err : (uploadError(err) ?? new AppError('INVALID_INPUT', 'malformed GraphQL multipart request')));
    });
  };
}

/** graphql-upload's own client errors (HttpError: status, expose) as AppErrors. */
function uploadError(err: unknown): AppError | undefined {
  const e = err as { status?: unknown; expose?: unknown; message?: unknown } | null;
  if (typeof e?.status !== 'number' || e.expose !== true || e.status < 400 || e.status >= 500) return undefined;
  if (e.status === 413) return new AppError('PAYLOAD_TOO_LARGE', typeof e.message === 'string' ? e.message : 'upload too large');
  return new AppError('INVALID_INPUT', typeof e.message === 'string' ? e.message : 'malformed GraphQL multipart request');
}

/**
 * Errors raised before Apollo runs (body parsing, depth, uploads) answered in the GraphQL shape
 * with the same codes REST uses, instead of falling through to the REST envelope or a 500.
 */
function graphqlBodyErrors(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  // The key check before Apollo reads the database: an outage there is a 503 in GraphQL's shape too.
  const e = isAppError(err) ? err : (bodyParserError(err) ?? uploadError(err) ?? databaseBusyError(err));
  if (!e || res.headersSent) return next(err);
  sendGraphqlError(res, e);
}

function sendGraphqlError(res: Response, e: AppError): void {
  const challenge = authChallenge(e);
  if (challenge) res.setHeader('WWW-Authenticate', challenge);
  if (isRetryLater(e)) res.setHeader('Retry-After', String(e.retryAfterSeconds));
  const retry = isRetryLater(e) ? { retryAfter: e.retryAfterSeconds } : {};
  const details = publicDetails(e);
  res.status(e.status).json({ errors: [{ message: e.message, extensions: { code: e.code, status: e.status, ...(details ? { details } : {}), ...retry } }] });
}
