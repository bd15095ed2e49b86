import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { SHA256_BYTES, sha256, sha256Of } from '../../src/domain/hash/sha256';

/**
 * src/domain/hash/sha256.ts replaced @noble/hashes on the verification hot path (Merkle hashes,
 * credential hash, disclosure digests): it must give the same digests, as plain Uint8Arrays
 * (a Buffer's `slice` is a view, not a copy, which the Merkle fold relies on).
 */
const bytes = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

test('FIPS 180-2 vectors: the empty string and "abc"', () => {
  expect(Buffer.from(sha256(new Uint8Array(0))).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  expect(Buffer.from(sha256(new TextEncoder().encode('abc'))).toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test.each([0, 1, 55, 56, 63, 64, 65, 1000, 70_000])('%i bytes: the digest @noble/hashes gives', (n) => {
  const data = bytes(n, n);
  expect(sha256(data)).toEqual(nobleSha256(data));
  // A view into a larger buffer hashes only its own bytes.
  const wide = bytes(n + 16, 3);
  const view = wide.subarray(8, 8 + n);
  expect(sha256(view)).toEqual(nobleSha256(view.slice()));
});

test('sha256Of hashes the concatenation of its parts', () => {
  const parts = [Uint8Array.of(0x01), bytes(32, 1), bytes(32, 2)];
  expect(sha256Of(parts)).toEqual(nobleSha256.create().update(parts[0]!).update(parts[1]!).update(parts[2]!).digest());
  expect(sha256Of([])).toEqual(nobleSha256(new Uint8Array(0)));
});

test('digests are plain Uint8Arrays of 32 bytes whose slice is a copy', () => {
  const d = sha256(bytes(10, 0));
  expect(Object.getPrototypeOf(d)).toBe(Uint8Array.prototype);
  expect(d.length).toBe(SHA256_BYTES);
  const copy = d.slice();
  copy[0] = d[0]! ^ 0xff;
  expect(copy[0]).not.toBe(d[0]);
});
