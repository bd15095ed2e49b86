import { OFFSET } from '../../../src/zk/encoding';
import { ZkEngine } from '../../../src/zk/zk-engine';

jest.setTimeout(120_000);

const seed = new Uint8Array(32).fill(9);
const te = new TextEncoder();
const messages = [{ b: te.encode('id') }, { n: OFFSET + 100 }];

describe('ZkEngine', () => {
  test('without the package it answers FEATURE_OFF and starts nothing', async () => {
    const engine = new ZkEngine({ workers: 1, deadlineMs: 10_000, capacity: 4, retryAfterSeconds: 1, resolveLibrary: () => null });
    await expect(engine.publicKey('t', seed)).rejects.toMatchObject({ code: 'FEATURE_OFF' });
    expect(engine.workersStarted).toBe(0);
    await engine.close();
  });

  test('a false range is refused (PREDICATE_NOT_MET); a job over its deadline is 503 + Retry-After and the next job gets a fresh worker', async () => {
    const engine = new ZkEngine({ workers: 1, deadlineMs: 60_000, capacity: 4, retryAfterSeconds: 3 });
    try {
      const publicKey = await engine.publicKey('a', seed);
      const signature = await engine.sign('a', seed, messages);
      const context = te.encode('ctx');
      const nonce = te.encode('nonce');
      await expect(engine.prove('a', { signature, publicKey, messages, ranges: [{ index: 1, min: OFFSET + 101, max: OFFSET + 200 }], context, nonce })).rejects.toMatchObject({ code: 'PREDICATE_NOT_MET' });
      // A wrong signature is refused before proving.
      await expect(engine.prove('a', { signature: signature.map((b, i) => (i === 5 ? b ^ 1 : b)), publicKey, messages, ranges: [], context, nonce })).rejects.toMatchObject({ code: 'VERIFICATION_FAILED' });
      const proof = await engine.prove('a', { signature, publicKey, messages, ranges: [{ index: 1, min: OFFSET, max: OFFSET + 101 }], context, nonce });
      expect(await engine.verify('b', { proof, publicKey, messageCount: 2, ranges: [{ index: 1, min: OFFSET, max: OFFSET + 101 }], context, nonce })).toBe(true);
      // A verifier asking a narrower range than the one proven gets false, not an error.
      expect(await engine.verify('b', { proof, publicKey, messageCount: 2, ranges: [{ index: 1, min: OFFSET, max: OFFSET + 100 }], context, nonce })).toBe(false);
      expect(await engine.verify('b', { proof: new Uint8Array([1, 2, 3]), publicKey, messageCount: 2, ranges: [], context, nonce })).toBe(false);
    } finally {
      await engine.close();
    }
    const tight = new ZkEngine({ workers: 1, deadlineMs: 10, capacity: 4, retryAfterSeconds: 3 });
    try {
      const publicKey = await tight.publicKey('a', seed).catch(() => null);
      const signature = publicKey ? await tight.sign('a', seed, messages).catch(() => null) : null;
      const job = signature && publicKey
        ? tight.prove('a', { signature, publicKey, messages, ranges: [{ index: 1, min: OFFSET, max: OFFSET + 101 }], context: te.encode('c'), nonce: te.encode('n') })
        : tight.sign('a', seed, messages);
      await expect(job).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 3 });
      await tight.publicKey('b', seed).catch(() => undefined);
      expect(tight.workersStarted).toBeGreaterThanOrEqual(2);
    } finally {
      await tight.close();
    }
  });
});
