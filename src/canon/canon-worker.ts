/**
 * The canonicalisation worker. Like the face worker, its JavaScript is a string started with
 * `new Worker(CANON_WORKER_SOURCE, { eval: true })`, so it runs unchanged from dist/ and under jest,
 * and it requires nothing by bare name: the main thread passes the absolute path of `jsonld` and the
 * pinned context documents in workerData. The worker never touches the network (its document
 * loader serves only the pinned contexts and the job's extra contexts) and never logs.
 *
 * Protocol (structured clone), one job at a time:
 *   worker -> main  { type: 'ready' } | { type: 'init-error', message }
 *   main -> worker  { id, document, base?, extra: [url, document][] }
 *   worker -> main  { type: 'result', id, nquads }
 *                 | { type: 'error', id, failure: CanonFailure }
 */

export interface CanonWorkerData {
  jsonldEntry: string;
  /** Pinned contexts: exact URL -> JSON-LD document. */
  contexts: [string, unknown][];
  /** jsonld's canonizeOptions, exactly as the in-thread path uses them (rdf-canonize.ts). */
  canonizeOptions: Record<string, unknown>;
}

export interface CanonJobMessage {
  id: number;
  document: unknown;
  base?: string;
  extra: [string, unknown][];
}

/**
 * A failure, reduced to plain data: `unknownContext` when the loader refused a URL; otherwise the
 * parts of jsonld's error that `describe` (rdf-canonize.ts) turns into a client message.
 */
export interface CanonFailure {
  unknownContext?: string;
  name?: string;
  message?: string;
  details?: { code?: string; event?: { code?: string; details?: unknown } };
}

export type CanonWorkerMessage =
  | { type: 'ready' }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; nquads: string }
  | { type: 'error'; id: number; failure: CanonFailure };

export const CANON_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');

let jsonld;
const pinned = new Map(workerData.contexts);

function loaderFor(extra) {
  const documents = new Map(pinned);
  for (const [url, document] of extra) if (!pinned.has(url)) documents.set(url, document);
  return async (url) => {
    if (!documents.has(url)) {
      const e = new Error('unknown JSON-LD context ' + url);
      e.credgateUnknownContext = url;
      throw e;
    }
    // jsonld rewrites the context objects it is given: a fresh copy per load, never a cache tag.
    return { contextUrl: null, documentUrl: url, document: structuredClone(documents.get(url)) };
  };
}

function plain(value) {
  try {
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  } catch {
    return undefined;
  }
}

function failureOf(error) {
  let current = error;
  for (let depth = 0; depth < 8 && current !== null && typeof current === 'object'; depth += 1) {
    if (typeof current.credgateUnknownContext === 'string') return { unknownContext: current.credgateUnknownContext };
    current = (current.details && current.details.cause) || current.cause;
  }
  const e = error || {};
  const details = e.details || {};
  const event = details.event;
  return {
    name: typeof e.name === 'string' ? e.name : undefined,
    message: typeof e.message === 'string' ? e.message.slice(0, 1000) : undefined,
    details: {
      code: typeof details.code === 'string' ? details.code : undefined,
      event: event && typeof event.code === 'string' ? { code: event.code, details: plain(event.details) } : undefined,
    },
  };
}

parentPort.on('message', async (job) => {
  try {
    const nquads = await jsonld.canonize(job.document, {
      safe: true,
      // As in src/domain/contexts/rdf-canonize.ts: @direction maps to an i18n datatype.
      rdfDirection: 'i18n-datatype',
      format: 'application/n-quads',
      documentLoader: loaderFor(job.extra),
      ...(job.base !== undefined ? { base: job.base } : {}),
      canonizeOptions: { ...workerData.canonizeOptions },
    });
    parentPort.postMessage({ type: 'result', id: job.id, nquads });
  } catch (error) {
    parentPort.postMessage({ type: 'error', id: job.id, failure: failureOf(error) });
  }
});

try {
  jsonld = require(workerData.jsonldEntry);
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'init-error', message: String((error && error.message) || error).slice(0, 500) });
}
`;
