import { createKeySigner, didKeyIdentity, generateSigningKeyPair, type SigningKeyPair } from '../../../src/vc/signers/key-signer';
import type { ProofSigner, SigningKeyType } from '../../../src/vc/ports';

export interface TestIssuer {
  readonly did: string;
  readonly pair: SigningKeyPair;
  readonly signer: ProofSigner;
}

/** A fresh did:key issuer with a real key of `keyType`. */
export function newDidKeyIssuer(keyType: SigningKeyType): TestIssuer {
  const pair = generateSigningKeyPair(keyType);
  const { did, verificationMethod } = didKeyIdentity(keyType, pair.publicKey);
  return { did, pair, signer: createKeySigner(pair, verificationMethod) };
}

/** The same key signing under another verification method id (for kid / controller attacks). */
export function signerAs(issuer: TestIssuer, verificationMethod: string): ProofSigner {
  return createKeySigner(issuer.pair, verificationMethod);
}
