import { type Canonicalizer, createCanonicalizer } from '../../src/canon';
import { FAMILY_A_CONTEXT, FAMILY_A_JSONLD_BASE, proofOptions } from '../../src/domain/credentials/family-a-credential';
import { DEFAULT_JSONLD_BUDGET, type DocumentLoader, canonizeJsonLd, createDocumentLoader, registerCanonicalizationExecutor } from '../../src/domain/contexts';
import { canonicalProofConfig, proofConfigMemoSize } from '../../src/domain/proofs/proof-config-memo';
import { AppError } from '../../src/errors';

/**
 * The proof-options memo (src/domain/proofs/proof-config-memo.ts): the same N-Quads as a fresh
 * canonicalisation, no second canonicalisation for the same input, nothing remembered for
 * loaders it cannot see into or for failures, a bounded size, and the structural budget of the
 * executor in force still applied on a hit.
 */

const loader = createDocumentLoader();
const config = (issuer: string, created = new Date('2026-11-27T10:00:00Z')): Record<string, unknown> => ({
  '@context': [...FAMILY_A_CONTEXT],
  ...proofOptions(issuer, created),
});

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('proof options memo', () => {
  let canon: Canonicalizer;
  let unregister: () => void;
  beforeAll(() => {
    canon = createCanonicalizer({ workers: 1, deadlineMs: 10_000, queueLimit: 8, budget: DEFAULT_JSONLD_BUDGET });
    unregister = registerCanonicalizationExecutor(canon);
  });
  afterAll(async () => {
    unregister();
    await canon.close();
  });

  it('answers a repeated input from the memo with the N-Quads a fresh canonicalisation gives', async () => {
    const input = config('did:example:memo-1');
    const before = canon.stats.completed;
    const first = await canonicalProofConfig(input, loader, FAMILY_A_JSONLD_BASE);
    expect(canon.stats.completed).toBe(before + 1);
    // An equal object (not the same one), as the next credential of the second builds it.
    const again = await canonicalProofConfig(config('did:example:memo-1'), loader, FAMILY_A_JSONLD_BASE);
    expect(canon.stats.completed).toBe(before + 1);
    expect(again).toBe(first);
    expect(await canonizeJsonLd(input, loader, FAMILY_A_JSONLD_BASE)).toBe(first);
    expect(first).toContain('did:example:memo-1#did-root-key');
  });

  it('keys on every input: another second, issuer, base or loader extra is canonicalised anew', async () => {
    const base = await canonicalProofConfig(config('did:example:memo-2'), loader, FAMILY_A_JSONLD_BASE);
    const before = canon.stats.completed;
    const otherSecond = await canonicalProofConfig(config('did:example:memo-2', new Date('2026-11-27T10:00:01Z')), loader, FAMILY_A_JSONLD_BASE);
    const otherIssuer = await canonicalProofConfig(config('did:example:memo-3'), loader, FAMILY_A_JSONLD_BASE);
    await canonicalProofConfig(config('did:example:memo-2'), loader, 'urn:other-base:');
    const withExtra = createDocumentLoader({ 'https://example.test/extra/v1': { '@context': { extraTerm: 'https://example.test/extra#term' } } });
    await canonicalProofConfig(config('did:example:memo-2'), withExtra, FAMILY_A_JSONLD_BASE);
    expect(canon.stats.completed).toBe(before + 4);
    expect(otherSecond).not.toBe(base);
    expect(otherSecond).toContain('2026-11-27T10:00:01Z');
    expect(otherIssuer).not.toBe(base);
  });

  it('never remembers for a loader it did not make (its answers could change)', async () => {
    const foreign: DocumentLoader = (url, options) => loader(url, options);
    const size = proofConfigMemoSize();
    const before = canon.stats.completed;
    const a = await canonicalProofConfig(config('did:example:memo-4'), foreign, FAMILY_A_JSONLD_BASE);
    const b = await canonicalProofConfig(config('did:example:memo-4'), foreign, FAMILY_A_JSONLD_BASE);
    expect(b).toBe(a);
    expect(proofConfigMemoSize()).toBe(size);
    // A foreign loader canonicalises in-thread (the pool cannot rebuild it): never the memo either.
    expect(canon.stats.completed).toBe(before);
  });

  it('does not remember failures: an unknown context fails every time', async () => {
    const bad = { ...config('did:example:memo-5'), '@context': [...FAMILY_A_CONTEXT, 'https://unknown.example.test/v1'] };
    const size = proofConfigMemoSize();
    for (let i = 0; i < 2; i += 1) {
      const error = await rejection(canonicalProofConfig(bad, loader, FAMILY_A_JSONLD_BASE));
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toContain('https://unknown.example.test/v1');
    }
    expect(proofConfigMemoSize()).toBe(size);
  });

  it('holds at most 256 entries', async () => {
    for (let i = 0; i < 300; i += 1) await canonicalProofConfig(config(`did:example:bound-${i}`), loader, FAMILY_A_JSONLD_BASE);
    expect(proofConfigMemoSize()).toBe(256);
    // The oldest went first: the first of the 300 is canonicalised again, the last is a hit.
    const before = canon.stats.completed;
    await canonicalProofConfig(config('did:example:bound-299'), loader, FAMILY_A_JSONLD_BASE);
    expect(canon.stats.completed).toBe(before);
    await canonicalProofConfig(config('did:example:bound-0'), loader, FAMILY_A_JSONLD_BASE);
    expect(canon.stats.completed).toBe(before + 1);
  });

  it('applies the structural budget of the executor in force on a hit', async () => {
    const input = config('did:example:memo-6');
    await canonicalProofConfig(input, loader, FAMILY_A_JSONLD_BASE);
    const tight = { budget: { ...DEFAULT_JSONLD_BUDGET, maxValues: 3 }, canonize: () => Promise.reject(new Error('not reached')) };
    const unregisterTight = registerCanonicalizationExecutor(tight);
    try {
      expect((await rejection(canonicalProofConfig(input, loader, FAMILY_A_JSONLD_BASE))).code).toBe('DOCUMENT_TOO_LARGE');
    } finally {
      unregisterTight();
    }
  });
});
