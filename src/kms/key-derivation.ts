import { createHmac, hkdfSync } from 'node:crypto';
import { type Kek, type Keyring, kekFromKey } from './envelope';

/**
 * Every key Credgate uses is derived from the one master key with HKDF-SHA256 (empty salt) under
 * its own label, so no two purposes share key bytes: a key that leaks or is misused for one
 * purpose says nothing about the others. The ledger signing key uses 'credgate/ledger-log-key/v1'
 * (see src/ledger/log-key.ts).
 */
export const CUSTODY_KEK_INFO = 'credgate/custody-kek/v1';
export const KEY_CHECK_INFO = 'credgate/master-key-check/v1';
/** The Ed25519 seed of the OAuth2 access-token signing key (src/services/oauth/token-keys.ts). */
export const OAUTH_TOKEN_KEY_INFO = 'credgate/oauth-token-key/v1';
/** The message the key-check value is a MAC of; a constant, so the value identifies the key only. */
const KEY_CHECK_MESSAGE = 'credgate master key check v1';

function checkLength(masterKey: Uint8Array): void {
  if (masterKey.length !== 32) throw new Error('master key must be 32 bytes');
}

/** HKDF-SHA256(IKM = master key, salt = empty, info = label, L = 32). */
export function deriveSubkey(masterKey: Uint8Array, info: string): Buffer {
  checkLength(masterKey);
  return Buffer.from(hkdfSync('sha256', masterKey, new Uint8Array(0), info, 32));
}

/** The KEK that wraps every data key sealed from now on. */
export function deriveCustodyKek(masterKey: Uint8Array): Kek {
  return kekFromKey(deriveSubkey(masterKey, CUSTODY_KEK_INFO));
}

/**
 * Before key separation, the raw master key was the KEK. Rows sealed then carry its id and stay
 * readable through this KEK; nothing new is ever sealed under it.
 */
export function legacyKek(masterKey: Uint8Array): Kek {
  checkLength(masterKey);
  return kekFromKey(masterKey);
}

/**
 * Seals under the derived KEK of `masterKey`; opens rows sealed under it or under any of `others`
 * (the previous master key during a rotation, see rotation.ts), and legacy rows only when the
 * database may hold some.
 */
export function keyringFor(masterKey: Uint8Array, acceptLegacy: boolean, others: readonly Uint8Array[] = []): Keyring {
  const sealing = deriveCustodyKek(masterKey);
  const opening = [masterKey, ...others].flatMap((k, i) => [...(i === 0 ? [sealing] : [deriveCustodyKek(k)]), ...(acceptLegacy ? [legacyKek(k)] : [])]);
  return { sealing, opening };
}

/**
 * The key-check value stored in the database: HMAC-SHA256 under a subkey of its own. It proves
 * which master key created the database without revealing anything usable about the key.
 */
export function keyCheckValue(masterKey: Uint8Array): Buffer {
  return createHmac('sha256', deriveSubkey(masterKey, KEY_CHECK_INFO)).update(KEY_CHECK_MESSAGE).digest();
}

/**
 * The 32-byte Ed25519 seed that signs OAuth2 access tokens. Every instance of one deployment
 * derives the same key from the master key, so a token issued by one is accepted by all without
 * shared state, and the key is never stored anywhere.
 */
export function deriveOAuthTokenSeed(masterKey: Uint8Array): Buffer {
  return deriveSubkey(masterKey, OAUTH_TOKEN_KEY_INFO);
}
