import type { TSchema } from '@sinclair/typebox';
import type { Scope } from '../domain/tenancy/actor';

/**
 * One REST operation, described once: the request schemas validate the REST body (see
 * rest/middleware/validate-body.ts) and, with the route table, generate the OpenAPI document
 * (rest/openapi/document.ts). Schemas are TypeBox objects, i.e. plain JSON Schema 2020-12 with
 * `Static<>` types for the service inputs.
 */
export type Method = 'get' | 'post' | 'put' | 'delete';

/**
 * Which error envelope the operation answers with (service routes answer Family B's `{ error }`;
 * `problem`: RFC 9457 problem details, the VC-API's; `oauth`: RFC 6749's `{ error, error_description }`).
 */
export type Family = 'A' | 'B' | 'service' | 'problem' | 'oauth';

export interface Parameter {
  readonly name: string;
  readonly description: string;
  readonly schema: TSchema;
  readonly example: unknown;
  readonly required?: boolean;
}

export interface Body {
  readonly schema: TSchema;
  readonly example: unknown;
  /** multipart/form-data instead of JSON; multipart bodies are parsed (and checked) by the route. */
  readonly multipart?: boolean;
  /** Media types accepted (default application/json); each documents the same schema. */
  readonly mediaTypes?: readonly string[];
}

export interface Answer {
  readonly description: string;
  readonly schema?: TSchema;
  readonly example?: unknown;
  /** Defaults to application/json. */
  readonly contentType?: string;
  /** Response headers worth documenting, by name (see HEADERS in rest/openapi/document.ts). */
  readonly headers?: readonly string[];
}

export interface Operation {
  /** Unique; the OpenAPI operationId of the first path (aliases get a suffix). */
  readonly id: string;
  readonly method: Method;
  /** Express patterns; the first is the documented spelling, the rest are accepted aliases. */
  readonly paths: readonly string[];
  readonly family: Family;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** API-key (or access-token) scopes accepted (empty: any key); undefined: no API key at all. */
  readonly scopes?: readonly Scope[];
  readonly pathParams?: readonly Parameter[];
  readonly query?: readonly Parameter[];
  /** Request headers besides X-API-Key. */
  readonly headers?: readonly Parameter[];
  readonly body?: Body;
  /** Success answers (and answers that are results, such as 400 verification failures). */
  readonly responses: Readonly<Record<number, Answer>>;
  /** Error statuses beyond the ones every operation of its kind can answer (see errorStatuses). */
  readonly errors?: readonly number[];
  /** Honours Idempotency-Key (issuing POSTs; see rest/middleware/idempotency.ts). */
  readonly idempotent?: boolean;
  /** Counted against a rate limit (oracle-shaped operations, keyless documents): may answer 429. */
  readonly rateLimited?: boolean;
}

/** What an operation says beyond its group, method, paths and id. */
export type OperationSpec = Omit<Operation, 'family' | 'tag' | 'method' | 'paths' | 'id'>;

/** Declares the operations of one family and tag: `op('post', '/vc-templates', 'createTemplate', { … })`. */
export function operationGroup(family: Family, tag: string) {
  return (method: Method, paths: string | readonly string[], id: string, spec: OperationSpec): Operation => ({
    id,
    method,
    paths: typeof paths === 'string' ? [paths] : paths,
    family,
    tag,
    ...spec,
  });
}
