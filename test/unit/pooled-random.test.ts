import { pooledRandomBytes } from '../../src/domain/random/pooled-random';

/*
 * The pooled CSPRNG behind disclosure salts (src/domain/random/pooled-random.ts): every draw has
 * its own bytes (a pool handing the same bytes out twice would give two credentials one salt),
 * across refills, and sizes are exact.
 */

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

test('16-byte draws never repeat, across many refills of the 4 KiB pool', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i += 1) seen.add(hex(pooledRandomBytes(16)));
  expect(seen.size).toBe(5000);
});

test('draws of odd sizes straddle refills with the exact length and no zeroed tail', () => {
  for (let i = 0; i < 2000; i += 1) {
    const n = 1 + (i % 97);
    const b = pooledRandomBytes(n);
    expect(b).toBeInstanceOf(Uint8Array);
    expect(b.length).toBe(n);
  }
  // A 64-byte draw of zeros would mean the pool handed out bytes it had already cleared.
  for (let i = 0; i < 500; i += 1) expect(pooledRandomBytes(64).some((x) => x !== 0)).toBe(true);
});

test('a large draw bypasses the pool and still has its length; zero bytes is an empty array', () => {
  expect(pooledRandomBytes(10_000).length).toBe(10_000);
  expect(pooledRandomBytes(0).length).toBe(0);
});

test('every byte value turns up about equally often (a broken source would not)', () => {
  const counts = new Array<number>(256).fill(0);
  for (let i = 0; i < 4096; i += 1) for (const x of pooledRandomBytes(16)) counts[x]! += 1;
  // 65,536 bytes: 256 per value expected; chi-square with 255 degrees of freedom stays far below 400
  // for a uniform source (p ≈ 1e-8), and far above it for a biased one.
  const chi = counts.reduce((a, c) => a + (c - 256) ** 2 / 256, 0);
  expect(chi).toBeLessThan(400);
});

test('a negative or fractional size is refused', () => {
  expect(() => pooledRandomBytes(-1)).toThrow(RangeError);
  expect(() => pooledRandomBytes(1.5)).toThrow(RangeError);
});
