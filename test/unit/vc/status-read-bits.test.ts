import { gzipSync } from 'node:zlib';
import { withStatusBit } from '../../../src/vc/status';
import { declaredInflatedSize, readStatusBits } from '../../../src/vc/status/read-bits';
import { DEFAULT_VERIFICATION_LIMITS, RequestBudget } from '../../../src/vc/net/request-budget';

/*
 * Review 3, attack 1: every decoded 16 MiB list was kept until the end of the check, and decoded
 * twice. readStatusBits inflates only up to the furthest byte asked for (at least the spec's 16 KiB
 * minimum), keeps only those bytes, and charges what it inflated to the request's budget.
 */

const MiB = 1024 * 1024;
const encode = (bytes: Uint8Array): string => `u${gzipSync(bytes).toString('base64url')}`;

test('a 16 MiB list read near its start inflates about the 16 KiB minimum, not 16 MiB', async () => {
  let bits: Uint8Array = new Uint8Array(16 * MiB);
  bits = withStatusBit(bits, 5, true);
  const budget = new RequestBudget();
  const r = await readStatusBits(encode(bits), [{ index: 5, size: 1 }, { index: 6, size: 1 }], { maxBytes: 16 * MiB, budget });
  expect(r.values).toEqual([1, 0]);
  expect(r.totalBytes).toBeUndefined();
  expect(budget.spent().decodedBytes).toBeGreaterThanOrEqual(16 * 1024);
  expect(budget.spent().decodedBytes).toBeLessThanOrEqual(128 * 1024);
});

test('an entry near the end is read exactly; multi-bit entries across bytes too', async () => {
  let bits: Uint8Array = new Uint8Array(64 * 1024);
  const last = 64 * 1024 * 8 - 1;
  bits = withStatusBit(bits, last, true);
  // Entry 3 of 4-bit entries = bits 12..15 -> 0b1010.
  bits = withStatusBit(withStatusBit(bits, 12, true), 14, true);
  const r = await readStatusBits(encode(bits), [{ index: last, size: 1 }, { index: 3, size: 4 }, { index: last + 1, size: 1 }], { maxBytes: 16 * MiB });
  expect(r.values).toEqual([1, 0b1010, undefined]);
  expect(r.totalBytes).toBe(64 * 1024);
});

test("inflation past the request's decoded-bytes budget stops with BudgetExceeded", async () => {
  const budget = new RequestBudget({ ...DEFAULT_VERIFICATION_LIMITS, maxDecodedBytes: 256 * 1024 });
  await expect(readStatusBits(encode(new Uint8Array(4 * MiB)), [{ index: 4 * MiB * 8 - 1, size: 1 }], { maxBytes: 16 * MiB, budget })).rejects.toMatchObject({ resource: 'decoded bytes' });
});

test('a bomb is refused at the bound, and its gzip trailer admits its size without inflating', async () => {
  const bomb = encode(new Uint8Array(32 * MiB));
  expect(declaredInflatedSize(bomb)).toBe(32 * MiB);
  await expect(readStatusBits(bomb, [{ index: 20 * MiB * 8, size: 1 }], { maxBytes: 16 * MiB })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/inflates beyond 16777216 bytes/) });
  await expect(readStatusBits('unot-gzip', [{ index: 1, size: 1 }], { maxBytes: 16 * MiB })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
});
