import { base58 } from '@scure/base';
import { type Canonicalizer, createCanonicalizer } from '../../src/canon';
import {
  CREDENTIALS_V1_URL,
  CREDGATE_V1_CONTEXT_URL,
  DEFAULT_JSONLD_BUDGET,
  canonizeJsonLd,
  createDocumentLoader,
  registerCanonicalizationExecutor,
} from '../../src/domain/contexts';
import { type JsonObject, verifyEd25519Signature2018 } from '../../src/domain/proofs';
import { AppError } from '../../src/errors';
import { readSharedJson } from '../support/shared';

/** The worker pool behind canonizeJsonLd: same output as in-thread, a deadline that kills, bounded queue. */

const vector = <T>(file: string): T => readSharedJson<T>('vectors', 'ed25519signature2018', file);
const loader = createDocumentLoader();
const FAMILY_A_CONTEXT = [CREDENTIALS_V1_URL, CREDGATE_V1_CONTEXT_URL];

/** `n` identical empty node objects: quadratic to canonicalise (about 13 s for 16,000). */
const hostile = (n: number): JsonObject => ({
  '@context': FAMILY_A_CONTEXT,
  type: ['VerifiableCredential'],
  credentialSubject: { name: Array.from({ length: n }, () => ({})) },
});
const unbounded = { ...DEFAULT_JSONLD_BUDGET, maxObjects: 1e9, maxValues: 1e9 };

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** Runs `work` and counts event-loop turns (setImmediate) that happen while it is pending. */
async function countTurns<T>(work: Promise<T>): Promise<{ turns: number; settled: PromiseSettledResult<T> }> {
  let done = false;
  let turns = 0;
  const settled = Promise.allSettled([work]).then(([r]) => {
    done = true;
    return r as PromiseSettledResult<T>;
  });
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  return { turns, settled: await settled };
}

describe('canonicalisation through the worker pool', () => {
  let canon: Canonicalizer;
  let unregister: () => void;
  beforeAll(() => {
    canon = createCanonicalizer({ workers: 1, deadlineMs: 250, queueLimit: 2, budget: unbounded });
    unregister = registerCanonicalizationExecutor(canon);
  });
  afterAll(async () => {
    unregister();
    await canon.close();
  });

  it('verifies the published Ed25519Signature2018 vectors off the event loop', async () => {
    const key = vector<{ publicKeyBase58: string }>('keys_key.json');
    // Case 2: proof options and document in the pool. Case 5 has case 2's proof options (same
    // created, method and @context), which the proof-options memo answers: its document only.
    for (const [which, jobs] of [['2', 2], ['5', 1]] as const) {
      const document = { ...vector<JsonObject>(`credentials_case-${which}.json`), proof: vector<JsonObject>(`proofs_digital-bazaar_case-${which}.json`) };
      const before = canon.stats.completed;
      expect(await verifyEd25519Signature2018(document, { publicKey: base58.decode(key.publicKeyBase58), documentLoader: loader })).toMatchObject({ verified: true });
      expect(canon.stats.completed).toBe(before + jobs);
    }
  });

  it('gives the same N-Quads and the same errors as the in-thread path', async () => {
    const doc = { '@context': FAMILY_A_CONTEXT, id: 'urn:uuid:1', type: ['VerifiableCredential'], credentialSubject: { id: 'did:example:1', name: 'Ada', age: 36 } };
    const pooled = await canonizeJsonLd(doc, loader, 'urn:x:');
    unregister();
    try {
      expect(await canonizeJsonLd(doc, loader, 'urn:x:')).toBe(pooled);
      const inThread = await rejection(canonizeJsonLd({ ...doc, '@context': [...FAMILY_A_CONTEXT, 'https://evil.example/ctx'] }, loader));
      unregister = registerCanonicalizationExecutor(canon);
      const pooledError = await rejection(canonizeJsonLd({ ...doc, '@context': [...FAMILY_A_CONTEXT, 'https://evil.example/ctx'] }, loader));
      expect({ code: pooledError.code, message: pooledError.message }).toEqual({ code: inThread.code, message: inThread.message });
    } finally {
      unregister();
      unregister = registerCanonicalizationExecutor(canon);
    }
  });

  it('serves a loader\'s extra contexts in the worker', async () => {
    const extra = createDocumentLoader({ 'https://example.org/ctx': { '@context': { nick: 'https://example.org/nick' } } });
    const nquads = await canonizeJsonLd({ '@context': 'https://example.org/ctx', '@id': 'urn:uuid:2', nick: 'x' }, extra);
    expect(nquads).toBe('<urn:uuid:2> <https://example.org/nick> "x" .\n');
  });

  it('kills a canonicalisation past its deadline with CANONICALIZATION_BUDGET, without blocking the event loop', async () => {
    const killedBefore = canon.stats.killed;
    const { turns, settled } = await countTurns(canonizeJsonLd(hostile(8000), loader));
    expect(settled.status).toBe('rejected');
    const error = (settled as PromiseRejectedResult).reason as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect({ code: error.code, status: error.status }).toEqual({ code: 'CANONICALIZATION_BUDGET', status: 422 });
    expect(canon.stats.killed).toBe(killedBefore + 1);
    expect(turns).toBeGreaterThan(20);
    // The same document again is refused at once from memory: no second worker is killed.
    expect((await rejection(canonizeJsonLd(hostile(8000), loader))).code).toBe('CANONICALIZATION_BUDGET');
    expect(canon.stats.killed).toBe(killedBefore + 1);
    // A fresh worker serves the next honest job.
    const started = canon.stats.workersStarted;
    expect(await canonizeJsonLd({ '@context': FAMILY_A_CONTEXT, '@id': 'urn:uuid:3', type: 'VerifiableCredential' }, loader)).toMatch(/urn:uuid:3/);
    expect(canon.stats.workersStarted).toBe(started + 1);
  });

  it('shares one computation between identical jobs in flight (ten GraphQL aliases, one variable)', async () => {
    const killedBefore = canon.stats.killed;
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => canonizeJsonLd(hostile(7000), loader)));
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as AppError).code : 'ok'))).toEqual(Array(10).fill('CANONICALIZATION_BUDGET'));
    expect(canon.stats.killed).toBe(killedBefore + 1);
  });

  it('refuses work beyond the queue limit with 503 instead of queueing without bound', async () => {
    await canonizeJsonLd({ '@context': FAMILY_A_CONTEXT, '@id': 'urn:uuid:4', type: 'VerifiableCredential' }, loader); // a ready, idle worker
    const jobs = [6001, 6002, 6003, 6004].map((n) => canonizeJsonLd(hostile(n), loader).then(() => 'ok', (e: AppError) => e.code));
    // One runs, two wait, the fourth is refused at once.
    expect(await Promise.all(jobs)).toEqual(['CANONICALIZATION_BUDGET', 'CANONICALIZATION_BUDGET', 'CANONICALIZATION_BUDGET', 'SERVICE_UNAVAILABLE']);
  });
});

describe('the structural budget, checked before any canonicalisation', () => {
  it('refuses a thousand blank nodes with DOCUMENT_TOO_LARGE (413), pool or not', async () => {
    const error = await rejection(canonizeJsonLd(hostile(1000), loader));
    expect({ code: error.code, status: error.status }).toEqual({ code: 'DOCUMENT_TOO_LARGE', status: 413 });
    expect(error.message).toMatch(/more than 256 objects/);
  });
});
