import type { TSchema } from '@sinclair/typebox';
import { OPERATIONS, type Operation } from '../../contracts';
import { FamilyAError, FamilyBError, ProblemDetails } from '../../contracts/common';
import { problemDetails } from '../envelopes';
import { AppError } from '../../errors/app-error';
import { OAuthErrorBody } from '../../contracts/oauth';
import { SCOPES } from '../../domain/tenancy/actor';
import type { Answer, Parameter } from '../../contracts/operation';
import { ERROR_STATUS, type ErrorCode } from '../../errors/codes';
import { VC_API_DEFAULT_BASE } from '../../contracts/vc-api';
import { isVcApiPath } from '../vc-api-path';
import { EXAMPLE_EXPECTS, QUERY_EXAMPLES_LEFT_OUT, documentBodyExample } from './example-expects';

type Json = Record<string, unknown>;

/** Plain JSON: TypeBox keeps its bookkeeping under Symbol keys, which JSON drops. */
const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;

/** `/issuer/schema/:schemaName` -> `/issuer/schema/{schemaName}`. */
export const openapiPath = (express: string): string => express.replace(/:([A-Za-z_$][\w$]*)/g, '{$1}');

/**
 * Every spelling an operation is mounted under: its paths, for Family A each again under /api, and
 * VC-API paths (whose contracts spell the default base) under the configured CREDGATE_VC_API_BASE.
 */
export function spellings(op: Operation, vcApiBase: string = VC_API_DEFAULT_BASE): string[] {
  if (op.family === 'A') return [...op.paths, ...op.paths.map((p) => `/api${p}`)];
  return op.paths.map((p) => (isVcApiPath(p, VC_API_DEFAULT_BASE) ? `${vcApiBase}${p.slice(VC_API_DEFAULT_BASE.length)}` : p));
}

/** One representative code (and message) per error status, for the examples. */
const ERROR_EXAMPLES: Readonly<Record<number, { code: ErrorCode; message: string }>> = {
  400: { code: 'INVALID_INPUT', message: 'templateName is required' },
  401: { code: 'UNAUTHENTICATED', message: 'missing or invalid API key' },
  403: { code: 'FORBIDDEN', message: 'this operation needs one of the scopes: issuer' },
  404: { code: 'NOT_FOUND', message: 'template not found' },
  409: { code: 'CONFLICT', message: 'a template with this name already exists' },
  413: { code: 'PAYLOAD_TOO_LARGE', message: 'request body is too large' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'request bodies must be application/json' },
  422: { code: 'IDEMPOTENCY_KEY_REUSED', message: 'this Idempotency-Key was used with a different request' },
  429: { code: 'RATE_LIMITED', message: 'rate limit exceeded for this API key (60 per 60 s)' },
  501: { code: 'UNSUPPORTED_DID_METHOD', message: 'DID method not supported' },
  503: { code: 'SERVICE_UNAVAILABLE', message: 'the database is busy, retry later' },
};

/** Which error codes answer with each status, from the one status table (errors/codes.ts). */
function codesOf(status: number): string[] {
  return Object.entries(ERROR_STATUS)
    .filter(([, s]) => s === status)
    .map(([c]) => c);
}

/** The error statuses an operation can answer besides its documented results. */
export function errorStatuses(op: Operation): number[] {
  const s = new Set(op.errors ?? []);
  if (op.scopes) s.add(401);
  if (op.scopes && op.scopes.length > 0) s.add(403);
  if (op.body || op.query?.length || op.headers?.some((h) => h.required)) s.add(400);
  if (op.body) s.add(413).add(415);
  if (op.idempotent) s.add(409).add(422);
  if (op.rateLimited) s.add(429);
  s.add(503);
  return [...s].filter((n) => op.responses[n] === undefined).sort((a, b) => a - b);
}

export function errorExample(family: Operation['family'], status: number): Json {
  const { code, message } = ERROR_EXAMPLES[status] ?? { code: 'INVALID_INPUT', message: 'invalid input' };
  const details = status === 400 ? [{ field: 'templateName', message: 'is required' }] : undefined;
  if (family === 'A') return { success: false, status, message, code, ...(details ? { details } : {}) };
  if (family === 'problem') return problemDetails(new AppError(code, message, details));
  if (family === 'oauth') return { error: status === 429 || status === 503 ? 'temporarily_unavailable' : 'invalid_request', error_description: message };
  return { error: message, code, ...(details ? { details } : {}) };
}

const RETRY_AFTER = { $ref: '#/components/headers/Retry-After' };
const HEADERS: Readonly<Record<string, Json>> = {
  'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
  Allow: { description: 'the methods the path accepts', schema: { type: 'string' } },
  'WWW-Authenticate': { description: '`ApiKey header="X-API-Key", Bearer realm="credgate"`; `Bearer realm="credgate", error="invalid_token"` for a refused access token; `Basic` from the token endpoint', schema: { type: 'string' } },
  'Cache-Control': { description: '`no-store`: the answer carries a secret', schema: { type: 'string' } },
  Pragma: { description: '`no-cache` (for HTTP/1.0 caches)', schema: { type: 'string' } },
  'Idempotent-Replayed': { description: '`true` when the answer is the stored answer of an earlier request with this Idempotency-Key', schema: { type: 'string' } },
  'X-Total-Count': { description: 'how many items exist', schema: { type: 'string' } },
  'X-Has-More': { description: '`true` when the bare list was cut at its cap', schema: { type: 'string' } },
  ETag: { description: 'the version of the document; send it back in If-None-Match for a 304', schema: { type: 'string' } },
  Link: { description: '`<…?first=500&after=…>; rel="next"` when there is more', schema: { type: 'string' } },
  'Credential-Status': { description: '`issued` or `revoked`: the credential’s current status (kept out of the signed body)', schema: { type: 'string', enum: ['issued', 'revoked'] } },
  'Credential-Revoked-At': { description: 'ISO 8601 UTC instant of the revocation; only on a revoked credential', schema: { type: 'string', format: 'date-time' } },
};
const headerRefs = (names: readonly string[]): Json => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

function errorResponse(op: Operation, status: number): Json {
  const schema = { $ref: `#/components/schemas/${op.family === 'A' ? 'FamilyAError' : op.family === 'problem' ? 'ProblemDetails' : op.family === 'oauth' ? 'OAuthError' : 'FamilyBError'}` };
  const headers: Json = {};
  if (status === 429 || status === 503 || (status === 409 && op.idempotent)) headers['Retry-After'] = RETRY_AFTER;
  if (status === 401) headers['WWW-Authenticate'] = { $ref: '#/components/headers/WWW-Authenticate' };
  return {
    description: `error; codes: ${codesOf(status).join(', ')}`,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: { [op.family === 'problem' ? 'application/problem+json' : 'application/json']: { schema, example: errorExample(op.family, status) } },
  };
}

function successResponse(op: Operation, a: Answer): Json {
  const headers = [...(a.headers ?? []), ...(op.idempotent ? ['Idempotent-Replayed'] : [])];
  return {
    description: a.description,
    ...(headers.length > 0 ? { headers: headerRefs(headers) } : {}),
    ...(a.schema ? { content: { [a.contentType ?? 'application/json']: { schema: plain(a.schema), ...(a.example !== undefined ? { example: a.example } : {}) } } } : {}),
  };
}

const parameter = (where: 'path' | 'query' | 'header', p: Parameter, withExample = true): Json => ({
  name: p.name,
  in: where,
  description: p.description,
  required: where === 'path' ? true : p.required === true,
  schema: plain(p.schema),
  ...(withExample ? { example: p.example } : {}),
});

/**
 * Either credential: an API key, or an access token holding one of the accepted scopes (OpenAPI
 * requirements are alternatives; the scopes inside one requirement would all be needed).
 */
function securityOf(op: Operation): Json[] {
  if (op.scopes === undefined) return [];
  return [{ ApiKey: [] }, ...(op.scopes.length === 0 ? [{ OAuth2: [] }] : op.scopes.map((s) => ({ OAuth2: [s] })))];
}

function operationObject(op: Operation, operationId: string): Json {
  const parameters = [
    ...(op.pathParams ?? []).map((p) => parameter('path', p)),
    ...(op.query ?? []).map((p) => parameter('query', p, !(QUERY_EXAMPLES_LEFT_OUT[op.id] ?? []).includes(p.name))),
    ...(op.headers ?? []).map((p) => parameter('header', p)),
    ...(op.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  const responses: Json = {};
  for (const [status, a] of Object.entries(op.responses)) responses[status] = successResponse(op, a);
  for (const status of errorStatuses(op)) responses[String(status)] = errorResponse(op, status);
  const scopes = op.scopes === undefined ? '' : op.scopes.length === 0 ? '\n\nAPI key or access token: any scope.' : `\n\nAPI key or access token scopes: ${op.scopes.join(', ')} (admin implies all).`;
  return {
    operationId,
    tags: [op.tag],
    summary: op.summary,
    description: `${op.description ?? op.summary}${scopes}`,
    security: securityOf(op),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              (op.body.multipart ? ['multipart/form-data'] : (op.body.mediaTypes ?? ['application/json'])).map((t) => [t, { schema: plain(op.body!.schema), example: documentBodyExample(op.id, op.body!.example) }]),
            ),
          },
        }
      : {}),
    responses,
    // What Execute in /docs gets with these examples when it is not a success (example-expects.ts).
    ...(EXAMPLE_EXPECTS[op.id] ? { 'x-example-expects': EXAMPLE_EXPECTS[op.id] } : {}),
  };
}

/** The operations this deployment serves: /docs only when CREDGATE_API_DOCS is on. */
export const documentedOperations = (docs: boolean): readonly Operation[] => OPERATIONS.filter((o) => docs || o.id !== 'apiDocs');

const INFO_DESCRIPTION = [
  'Credgate issues and verifies verifiable credentials. Two REST families share one deployment: Family A (`/issuer`, `/user`, `/verifier`, each also under `/api`) answers in the envelope `{ success, data, message?, status }`; Family B answers bare JSON and errors as `{ error, code, details? }`. GraphQL at `/graphql` offers the same operations.',
  'Every error carries a `code`; input errors carry per-field `details` (the same list GraphQL returns in `extensions.details`).',
  'A known path asked with a method it does not serve answers **405** with an `Allow` header (OPTIONS answers 204 with the same `Allow`). Busy or rate-limited answers (429, 503, and 409 `IDEMPOTENCY_IN_PROGRESS`) carry `Retry-After`.',
  'Request bodies are JSON (`application/json`) except the face-template uploads (multipart).',
].join('\n\n');

/** The OpenAPI 3.1 document of every REST operation, built once from the contracts. */
export function buildOpenApiDocument(options: { version: string; docs: boolean; serverUrl?: string; vcApiBase?: string }): Json {
  const paths: Record<string, Json> = {};
  for (const op of documentedOperations(options.docs)) {
    spellings(op, options.vcApiBase).forEach((express, i) => {
      const path = openapiPath(express);
      // Aliases need ids of their own: `<id>Alias<n>`, and `<id>Api…` for the /api spellings.
      const j = i % op.paths.length;
      const suffix = `${i >= op.paths.length ? 'Api' : ''}${j === 0 ? '' : `Alias${j}`}`;
      (paths[path] ??= {})[op.method] = operationObject(op, `${op.id}${suffix}`);
    });
  }
  return {
    // No jsonSchemaDialect: the default OpenAPI 3.1 dialect is JSON Schema 2020-12 (plus the OAS
    // vocabulary), which the contracts are written in; Swagger UI warns about any other value.
    openapi: '3.1.0',
    info: { title: 'Credgate REST API', version: options.version, description: INFO_DESCRIPTION, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'an API key (`credgate api-key create`); header names are case-insensitive' },
        OAuth2: {
          type: 'oauth2',
          description: 'an access token from POST /oauth/token (client id: the API key id; secret: the key), sent as `Authorization: Bearer`',
          flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: Object.fromEntries(SCOPES.map((s) => [s, s === 'admin' ? 'everything in the tenant' : `${s} operations`])) } },
        },
      },
      schemas: { FamilyAError: plain(FamilyAError), FamilyBError: plain(FamilyBError), ProblemDetails: plain(ProblemDetails), OAuthError: plain(OAuthErrorBody) },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'makes the issuing request safe to retry: a repeat with the same key and request replays the first answer',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
          // No example: Swagger UI would send one fixed key with every issuing operation, and the
          // second, different request under it is a 422 IDEMPOTENCY_KEY_REUSED. A key is yours to choose.
        },
      },
      headers: HEADERS,
      responses: {
        MethodNotAllowed: {
          description: 'the path exists but not with this method; `Allow` lists the methods',
          headers: { Allow: { $ref: '#/components/headers/Allow' } },
          content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/FamilyAError' }, { $ref: '#/components/schemas/FamilyBError' }] } } },
        },
      },
    },
  };
}
