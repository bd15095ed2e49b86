import type { DataIntegrityCryptosuite, SigningKeyType } from '../ports';
import type { KeyFamily, MethodType } from './method-keys';

/**
 * Every proof suite verifyProof understands, with what binds it: the key families and the
 * verification method types it may be verified with. A proof is never checked against a key of
 * another kind (e.g. an eddsa proof against a P-256 key, or an ecdsa proof against a JWK on
 * secp256k1), so no suite can be confused with another.
 */
export interface DataIntegritySuite {
  readonly name: string;
  readonly type: 'DataIntegrityProof' | 'Ed25519Signature2020';
  readonly cryptosuite?: DataIntegrityCryptosuite;
  readonly canonicalization: 'rdfc' | 'jcs';
  readonly keyFamilies: readonly KeyFamily[];
  readonly methodTypes: readonly MethodType[];
}

export const DATA_INTEGRITY_SUITES: readonly DataIntegritySuite[] = [
  {
    name: 'DataIntegrityProof/eddsa-rdfc-2022',
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-rdfc-2022',
    canonicalization: 'rdfc',
    keyFamilies: ['Ed25519'],
    methodTypes: ['Multikey', 'Ed25519VerificationKey2020'],
  },
  {
    name: 'DataIntegrityProof/eddsa-jcs-2022',
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-jcs-2022',
    canonicalization: 'jcs',
    keyFamilies: ['Ed25519'],
    methodTypes: ['Multikey', 'Ed25519VerificationKey2020'],
  },
  {
    name: 'DataIntegrityProof/ecdsa-rdfc-2019',
    type: 'DataIntegrityProof',
    cryptosuite: 'ecdsa-rdfc-2019',
    canonicalization: 'rdfc',
    keyFamilies: ['P-256', 'P-384'],
    methodTypes: ['Multikey', 'JsonWebKey2020', 'JsonWebKey'],
  },
  {
    name: 'Ed25519Signature2020',
    type: 'Ed25519Signature2020',
    canonicalization: 'rdfc',
    keyFamilies: ['Ed25519'],
    methodTypes: ['Ed25519VerificationKey2020', 'Multikey'],
  },
];

/** The seed's suites, verified by the seed's own code (src/domain/proofs, src/domain/credentials). */
export const LEGACY_SUITES = {
  Ed25519Signature2018: { keyFamilies: ['Ed25519'], methodTypes: ['Ed25519VerificationKey2018', 'Ed25519VerificationKey2020', 'Multikey'] },
  EcdsaSecp256k1Signature2019: {
    keyFamilies: ['secp256k1'],
    methodTypes: ['EcdsaSecp256k1VerificationKey2019', 'JsonWebKey2020', 'Multikey'],
  },
} as const satisfies Record<string, { keyFamilies: readonly KeyFamily[]; methodTypes: readonly MethodType[] }>;

/** Names as `ProofVerification.suite` reports them. */
export const SUPPORTED_PROOF_SUITES: readonly string[] = Object.freeze([
  ...DATA_INTEGRITY_SUITES.map((s) => s.name),
  ...Object.keys(LEGACY_SUITES),
]);

export function dataIntegritySuiteOf(proof: Record<string, unknown>): DataIntegritySuite | undefined {
  return DATA_INTEGRITY_SUITES.find((s) => s.type === proof.type && (s.cryptosuite === undefined ? proof.cryptosuite === undefined : s.cryptosuite === proof.cryptosuite));
}

export function suiteForSigning(suite: DataIntegrityCryptosuite | 'Ed25519Signature2020'): DataIntegritySuite {
  const found = DATA_INTEGRITY_SUITES.find((s) => (suite === 'Ed25519Signature2020' ? s.type === suite : s.cryptosuite === suite));
  if (!found) throw new Error(`no suite ${suite}`);
  return found;
}

/** The hash a suite uses with a key: SHA-384 only for ecdsa-rdfc-2019 on P-384 (vc-di-ecdsa §3.3). */
export function hashAlgorithmFor(family: KeyFamily | SigningKeyType): 'sha256' | 'sha384' {
  return family === 'P-384' ? 'sha384' : 'sha256';
}
