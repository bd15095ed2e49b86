import { hkdfSync } from 'node:crypto';

/** HKDF info of the log signing key; bump the version to rotate every log's checkpoint key. */
export const LEDGER_KEY_INFO = 'credgate/ledger-log-key/v1';

/**
 * The 32-byte Ed25519 seed of the deployment-wide ledger signing key:
 * HKDF-SHA256(IKM = master key, salt = empty, info = "credgate/ledger-log-key/v1", L = 32).
 * Deterministic, so the key survives restarts without being stored; it is never logged.
 */
export function deriveLedgerSeed(masterKey: Uint8Array): Uint8Array {
  if (masterKey.length !== 32) throw new Error('master key must be 32 bytes');
  return new Uint8Array(hkdfSync('sha256', masterKey, new Uint8Array(0), LEDGER_KEY_INFO, 32));
}
