import { createHash, randomInt } from 'node:crypto';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import type { Hasher, SaltGenerator, Signer } from '@sd-jwt/types';
import { b64url, randomSalt } from './jose';
import type { JoseSigner } from './types';

/**
 * @sd-jwt/sd-jwt-vc with our own crypto injected (habit 4): SHA-256 and salts from node:crypto,
 * signatures from a JoseSigner that keeps its private key. Only sha-256 is offered: it is the
 * one `_sd_alg` HAIP requires and the only one our verifier accepts.
 */
export const SD_ALG = 'sha-256';

export const sha256Hasher: Hasher = (data, alg) => {
  if (alg.toLowerCase() !== SD_ALG) throw new Error(`unsupported hash algorithm ${alg}`);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(new Uint8Array(data));
  return new Uint8Array(createHash('sha256').update(bytes).digest());
};

export const saltGenerator: SaltGenerator = () => randomSalt();

/** The library's string signer over a JoseSigner: it hands us `header.payload` and wants base64url back. */
export const librarySigner =
  (signer: JoseSigner): Signer =>
  async (data) =>
    b64url(await signer.sign(Buffer.from(data, 'ascii')));

/** An instance that can issue (and, with a holder signer, create key-binding JWTs). */
export function sdJwtVcInstance(options: { signer?: JoseSigner; holder?: JoseSigner }): SDJwtVcInstance {
  return new SDJwtVcInstance({
    hasher: sha256Hasher,
    hashAlg: SD_ALG,
    saltGenerator,
    ...(options.signer ? { signer: librarySigner(options.signer), signAlg: options.signer.alg } : {}),
    ...(options.holder ? { kbSigner: librarySigner(options.holder), kbSignAlg: options.holder.alg } : {}),
  });
}

/** Decoys per level with disclosures: 1 to 3, so the count of digests does not give away the count of claims. */
export const decoyCount = (): number => randomInt(1, 4);
