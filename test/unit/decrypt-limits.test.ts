import { randomBytes } from 'node:crypto';
import {
  MAX_CIPHERTEXT_LENGTH,
  MAX_ENCRYPTED_VALUES,
  decryptSubject,
  decryptSubjectYielding,
  encryptSubject,
  encryptedSubjectEntries,
} from '../../src/domain/encryption';
import { ed25519PublicKeyFromSeed } from '../../src/domain/keys';
import { expectAppError } from '../support/app-error';

describe('decryption limits', () => {
  const seed = randomBytes(32);
  const id = 'urn:uuid:limits';
  const subjectOf = (n: number) => encryptSubject(Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i}`, `v${i}`])), ed25519PublicKeyFromSeed(seed), id);

  it('allows the 128 attributes of a schema plus the id', () => {
    expect(MAX_ENCRYPTED_VALUES).toBe(129);
    const all = subjectOf(MAX_ENCRYPTED_VALUES);
    expect(Object.keys(decryptSubject(all, seed, id))).toHaveLength(129);
  });

  it('refuses one value more, and an oversized ciphertext, before any key work', () => {
    const tooMany = { ...subjectOf(1), ...Object.fromEntries(Array.from({ length: MAX_ENCRYPTED_VALUES }, (_, i) => [`x${i}`, 'AAAA'])) };
    expectAppError(() => encryptedSubjectEntries(tooMany), 'INVALID_INPUT', /at most 129 /);
    // A bad seed is not even looked at: the limits come first.
    expectAppError(() => decryptSubject(tooMany, new Uint8Array(3), id), 'INVALID_INPUT', /at most 129 /);
    expectAppError(() => decryptSubject({ a: 'A'.repeat(MAX_CIPHERTEXT_LENGTH + 4) }, seed, id), 'INVALID_INPUT', /longer than the largest encrypted value/);
  });

  it('the yielding variant gives the same result and lets the event loop turn', async () => {
    const all = subjectOf(64);
    let turns = 0;
    let done = false;
    const work = decryptSubjectYielding(all, seed, id).finally(() => (done = true));
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    expect(await work).toEqual(decryptSubject(all, seed, id));
    expect(turns).toBeGreaterThanOrEqual(7); // one turn per slice of 8 values
  });
});
