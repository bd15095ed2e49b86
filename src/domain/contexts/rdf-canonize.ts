import { canonize } from 'jsonld';
import { AppError, isAppError } from '../../errors';
import { CREDGATE_JSON_LITERAL_TERMS } from './credgate-v1';
import { type DocumentLoader, extraContextsOf } from './document-loader';
import { DEFAULT_JSONLD_BUDGET, type JsonLdBudget, assertWithinJsonLdBudget } from './jsonld-budget';

/** One canonicalisation as plain data: the loader is rebuilt from the pinned contexts plus `extra`. */
export interface CanonicalizationJob {
  document: object;
  base?: string;
  extra: [string, unknown][];
}

/**
 * Runs canonicalisations somewhere other than the event loop (src/canon: worker threads with a
 * deadline). It must run exactly the canonicalisation below and reject only with AppErrors
 * (use {@link jsonLdFailure} for jsonld's own failures).
 */
export interface CanonicalizationExecutor {
  readonly budget: JsonLdBudget;
  canonize(job: CanonicalizationJob): Promise<string>;
}

/** The canonicalisation options; the workers (src/canon) receive this very object. */
export const CANONIZE_OPTIONS = { algorithm: 'RDFC-1.0', messageDigestAlgorithm: 'sha256', maxWorkFactor: 1 } as const;

/**
 * Executors registered by composition roots, newest last. A process normally has one; tests may
 * run several apps, and closing one must not strand the others on the event loop.
 */
const executors: CanonicalizationExecutor[] = [];

/** Makes `executor` the one canonizeJsonLd uses; returns the function that unregisters it. */
export function registerCanonicalizationExecutor(executor: CanonicalizationExecutor): () => void {
  executors.push(executor);
  return () => {
    const i = executors.lastIndexOf(executor);
    if (i >= 0) executors.splice(i, 1);
  };
}

/** The structural budget in force: the registered executor's, else the defaults. */
export function activeJsonLdBudget(): JsonLdBudget {
  return executors[executors.length - 1]?.budget ?? DEFAULT_JSONLD_BUDGET;
}

interface JsonLdErrorShape {
  name?: unknown;
  message?: unknown;
  cause?: unknown;
  details?: { code?: unknown; cause?: unknown; event?: { code?: unknown; details?: unknown } };
}

/** jsonld wraps loader failures (`details.cause`); surface our own AppError when it is in the chain. */
function findAppError(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== null && typeof current === 'object'; depth += 1) {
    if (isAppError(current)) return current;
    const shape = current as JsonLdErrorShape;
    current = shape.details?.cause ?? shape.cause;
  }
  return undefined;
}

const MAX_DETAIL = 300;

/** The AppError for a jsonld failure (or a plain-data copy of one from a worker). */
export function jsonLdFailure(error: unknown): AppError {
  return findAppError(error) ?? new AppError('INVALID_INPUT', describe(error));
}

function describe(error: unknown): string {
  const shape = (error ?? {}) as JsonLdErrorShape;
  const event = shape.details?.event;
  if (event && typeof event.code === 'string') {
    // Safe-mode events name the offending property/IRI; they never contain key material.
    const details = JSON.stringify(event.details ?? {});
    const shown = details.length > MAX_DETAIL ? `${details.slice(0, MAX_DETAIL)}...` : details;
    return `JSON-LD safe mode rejected the document (${event.code}): ${shown}`;
  }
  const code = typeof shape.details?.code === 'string' ? ` (${shape.details.code})` : '';
  const message = typeof shape.message === 'string' ? shape.message : 'unknown error';
  return `JSON-LD processing failed${code}: ${message}`;
}

function dropped(path: string, what: string): never {
  throw new AppError(
    'INVALID_INPUT',
    `JSON-LD value at ${path} is ${what}, which has no RDF representation, so a signature could not cover it; omit the member instead`,
  );
}

/**
 * JSON-LD removes `null` members, empty arrays and `@index` entries without any safe-mode event, so
 * `{ a: null }` and `{}` would canonicalize (and sign) identically. Reject them up front. Values of
 * JSON-literal terms (`@type: @json`, e.g. Credgate's `biometrics`) are kept verbatim by JSON-LD and
 * `@context` may legitimately contain `null`, so those subtrees are not inspected.
 */
function assertNothingDropped(value: unknown, path: string): void {
  if (value === null) dropped(path, 'null');
  if (typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (value.length === 0) dropped(path, 'an empty array');
    value.forEach((item: unknown, i) => assertNothingDropped(item, `${path}[${i}]`));
    return;
  }
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (key === '@context' || CREDGATE_JSON_LITERAL_TERMS.has(key)) continue;
    if (key === '@index') dropped(`${path}.${key}`, 'an @index');
    assertNothingDropped(member, `${path}.${key}`);
  }
}

/**
 * RDF Dataset Canonicalization (RDFC-1.0, output-identical to URDNA2015 for these documents) of a
 * JSON-LD document, as canonical N-Quads.
 *
 * Everything a signature is computed over must contain every field, so this is stricter than
 * jsonld's defaults and throws `AppError('INVALID_INPUT')` instead of leaving data out:
 * - safe mode: a term no context defines, a relative IRI, an empty node object and every other
 *   construct that jsonld reports as dropped is an error;
 * - `null` members, empty arrays and `@index` (dropped by JSON-LD without a safe-mode event) are
 *   rejected, except inside `@context` and JSON-literal terms;
 * - `base` is left at jsonld's default `''` (what jsonld-signatures uses). Passing `base: null`
 *   would open a hole: an IRI-valued member equal to `''` (e.g. `credentialStatus: ''`) is then
 *   silently dropped even in safe mode, while with `''` it stays relative and is rejected.
 * An unknown context URL surfaces as the loader's `AppError`.
 *
 * Cost (finding "event-loop freeze"): the document must first fit the structural budget
 * (`DOCUMENT_TOO_LARGE`, 413, counted in one linear pass); then, when a composition root has
 * registered an executor and the loader was made by `createDocumentLoader`, the canonicalisation
 * runs off the event loop under a deadline (`CANONICALIZATION_BUDGET`, 422). Without an executor
 * (unit tests, scripts) it runs here, on the calling thread.
 *
 * `base`, when a profile sets one, resolves relative IRI references (e.g. the base64 `id` of an
 * encrypted subject) against it; signer and verifier must pass the same value.
 */
export async function canonizeJsonLd(document: object, documentLoader: DocumentLoader, base?: string): Promise<string> {
  const executor = executors[executors.length - 1];
  assertWithinJsonLdBudget(document, executor?.budget ?? DEFAULT_JSONLD_BUDGET, 'document');
  assertNothingDropped(document, '$');
  const extra = extraContextsOf(documentLoader);
  if (executor && extra) {
    return executor.canonize({ document, extra: [...extra], ...(base !== undefined ? { base } : {}) });
  }
  try {
    return await canonize(document, {
      safe: true,
      // VCDM 2.0 §11.1 language values may carry @direction; without a mapping safe mode drops
      // it and refuses. i18n-datatype is what Digital Bazaar's RDFC cryptosuites use (same n-quads).
      rdfDirection: 'i18n-datatype',
      format: 'application/n-quads',
      documentLoader,
      ...(base !== undefined ? { base } : {}),
      canonizeOptions: { ...CANONIZE_OPTIONS },
    });
  } catch (error) {
    throw jsonLdFailure(error);
  }
}
