import type { NextFunction, Request, Response } from 'express';
import { type DefinitionNode, type DocumentNode, Kind, type OperationDefinitionNode, type SelectionSetNode, parse } from 'graphql';
import type { Actor } from '../domain/tenancy/actor';
import { ERROR_STATUS, invalidInput } from '../errors';
import type { AuthService } from '../services/auth.service';
import { IDEMPOTENCY_HEADER, type IdempotencyService, type StoredResponse, authorityOf, fingerprintOf, isStorableStatus, parseIdempotencyKey } from '../services/idempotency.service';
import type { RestLocals } from '../rest/context';
import { captureResponse, replayResponse } from '../rest/middleware/idempotent-response';
import { credentialOf } from '../rest/middleware/credential';

/** The GraphQL twins of the issuing REST POSTs; a keyed request for another mutation ignores the key. */
const ISSUING_MUTATIONS = new Set([
  'issueCredential',
  'issueTemplateCredential',
  'createVcTemplate',
  'createDid',
  'createPresentation',
  'createZkpToken',
  'createSchema',
  'createZkpCertificate',
]);

/** Top-level field names of a selection set, through fragments (at most `depth` fragment levels). */
function fieldNames(set: SelectionSetNode, doc: DocumentNode, depth = 0): string[] {
  const out: string[] = [];
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      if (s.name.value !== '__typename') out.push(s.name.value);
    } else if (depth < 8) {
      const inner =
        s.kind === Kind.INLINE_FRAGMENT
          ? s.selectionSet
          : doc.definitions.find((d: DefinitionNode) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value)?.['selectionSet' as never];
      if (inner) out.push(...fieldNames(inner as SelectionSetNode, doc, depth + 1));
    }
  }
  return out;
}

function operationOf(doc: DocumentNode, name: unknown): OperationDefinitionNode | undefined {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (typeof name === 'string' && name !== '') return ops.find((o) => o.name?.value === name);
  return ops.length === 1 ? ops[0] : undefined;
}

/**
 * Whether a GraphQL answer is one a repeat would get again: Apollo answers 200 even when a field
 * failed, so each error's code decides (codes with no fixed status are Apollo's own client errors).
 */
function storableGraphqlAnswer(r: StoredResponse): boolean {
  if (!isStorableStatus(r.status)) return false;
  let parsed: { errors?: { extensions?: { code?: unknown } }[] };
  try {
    parsed = JSON.parse(r.body.toString('utf8')) as typeof parsed;
  } catch {
    return false;
  }
  return (parsed.errors ?? []).every((e) => {
    const code = e.extensions?.code;
    if (code === 'INTERNAL' || code === 'UNAUTHENTICATED' || typeof code !== 'string') return false;
    const status = (ERROR_STATUS as Record<string, number>)[code];
    return isStorableStatus(status ?? 400);
  });
}

/**
 * `Idempotency-Key` on /graphql, applied to the one mutation field of the request: a keyed
 * request with several mutation fields is refused (400), since one stored answer could not stand
 * for several operations. Queries and non-issuing mutations ignore the key.
 */
export function graphqlIdempotency(auth: AuthService, idempotency: IdempotencyService, maxTokens: number) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method !== 'POST' || req.headers[IDEMPOTENCY_HEADER] === undefined) {
      next();
      return;
    }
    try {
      const key = parseIdempotencyKey(req.headers[IDEMPOTENCY_HEADER])!;
      const body = req.body as Record<string, unknown> | undefined;
      if (req.is('multipart/form-data')) throw invalidInput('Idempotency-Key is only supported on JSON requests');
      if (!body || typeof body !== 'object' || Array.isArray(body) || typeof body['query'] !== 'string') {
        next(); // Apollo answers the malformed request itself
        return;
      }
      let doc: DocumentNode;
      try {
        doc = parse(body['query'], { maxTokens });
      } catch {
        next(); // Apollo reports the syntax error; nothing runs
        return;
      }
      const op = operationOf(doc, body['operationName']);
      if (!op || op.operation !== 'mutation') {
        next();
        return;
      }
      const fields = fieldNames(op.selectionSet, doc);
      if (fields.length > 1) throw invalidInput('a request with an Idempotency-Key may carry only one mutation field');
      if (!fields.every((f) => ISSUING_MUTATIONS.has(f))) {
        next();
        return;
      }
      const l = res.locals as RestLocals;
      let actor: Actor | undefined = l.actor;
      if (!actor) {
        try {
          actor = await auth.authenticate(credentialOf(req));
        } catch {
          next(); // the context function answers 401
          return;
        }
      }
      const fingerprint = fingerprintOf({ method: 'POST', path: '/graphql', body: { query: body['query'], operationName: body['operationName'] ?? null, variables: body['variables'] ?? null } });
      const scope = { tenantId: actor.tenantId, apiKeyId: actor.apiKeyId, key };
      // Before @Authorized runs (inside Apollo): a stored answer goes only to the authority that earned it.
      const claim = await idempotency.begin(scope, fingerprint, authorityOf(actor));
      if (claim.kind === 'replay') {
        replayResponse(res, claim.response);
        return;
      }
      captureResponse(res, (r) => idempotency.finish(scope, claim.owner, r, storableGraphqlAnswer(r)), l.log);
      next();
    } catch (e) {
      next(e);
    }
  };
}
