import { invalidInput } from '../../errors';
import { ISSUING_SUITES, type IssuingSuite, type SigningKeyType } from '../../vc/ports';

export const KEY_TYPES: readonly SigningKeyType[] = ['Ed25519', 'P-256', 'P-384'];

/** The key types each suite signs with; the first is the default. */
const SUITE_KEYS: Readonly<Record<IssuingSuite, readonly SigningKeyType[]>> = {
  'eddsa-rdfc-2022': ['Ed25519'],
  'eddsa-jcs-2022': ['Ed25519'],
  Ed25519Signature2020: ['Ed25519'],
  'ecdsa-rdfc-2019': ['P-256', 'P-384'],
  // EdDSA, ES256 or ES384 by the key (VC-JOSE-COSE).
  'vc+jwt': ['Ed25519', 'P-256', 'P-384'],
};

/** Checks an issuer instance request: a suite the specs name, and a key type that suite signs with. */
export function checkSuiteAndKey(cryptosuite: string, keyType: string | undefined): { suite: IssuingSuite; keyType: SigningKeyType } {
  if (!(ISSUING_SUITES as readonly string[]).includes(cryptosuite)) {
    throw invalidInput(`cryptosuite must be one of ${ISSUING_SUITES.join(', ')}`, [{ field: 'cryptosuite', message: 'unsupported cryptosuite' }]);
  }
  const suite = cryptosuite as IssuingSuite;
  const allowed = SUITE_KEYS[suite];
  if (keyType === undefined) return { suite, keyType: allowed[0]! };
  if (!(allowed as readonly string[]).includes(keyType)) {
    throw invalidInput(`${suite} signs with ${allowed.join(' or ')} keys, not ${keyType}`, [{ field: 'keyType', message: `must be ${allowed.join(' or ')}` }]);
  }
  return { suite, keyType: keyType as SigningKeyType };
}

/**
 * The Data Integrity suite of a key: what signs an instance's status list credentials when the
 * instance itself issues JWTs (a status list is fetched as JSON by verifiers of any kind).
 */
export function dataIntegritySuiteOf(suite: IssuingSuite, keyType: SigningKeyType): Exclude<IssuingSuite, 'vc+jwt'> {
  if (suite !== 'vc+jwt') return suite;
  return keyType === 'Ed25519' ? 'eddsa-rdfc-2022' : 'ecdsa-rdfc-2019';
}
