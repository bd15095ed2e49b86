import { webcrypto } from 'node:crypto';

/**
 * node's WebCrypto, passed to every @peculiar/x509 call explicitly instead of set as the library's
 * process-wide provider: nothing else in the process (tests, other libraries) sees a changed global.
 */
export const x509Crypto: webcrypto.Crypto = webcrypto;

export type WebCryptoKey = webcrypto.CryptoKey;
export type WebCryptoKeyPair = webcrypto.CryptoKeyPair;

/** ECDSA over P-256 with SHA-256: the only certificate key HAIP asks for, and what ES256 signs with. */
export const ECDSA_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
export const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
