import { invalidInput } from '../../errors';
import { formats as registered, type FormatRegistry } from '../../formats/registry';
import type { W3cCredentialFormat } from '../../formats/format';
import type { IssuerKeyType, IssuingSuite, SigningKeyType } from '../../vc/ports';

export const KEY_TYPES: readonly SigningKeyType[] = ['Ed25519', 'P-256', 'P-384'];

/**
 * Checks an issuer instance request: a suite a registered W3C format signs with, and a key type
 * that format signs with (its first is the default). The suites and their keys are the formats'
 * own declarations (src/formats), not a table here.
 */
export function checkSuiteAndKey(cryptosuite: string, keyType: string | undefined, formats: FormatRegistry = registered): { suite: IssuingSuite; keyType: IssuerKeyType } {
  const format = formats.forIssuingSuite(cryptosuite);
  if (!format) {
    const names = formats.issuingSuites().map((f) => f.vcApi.suite);
    throw invalidInput(`cryptosuite must be one of ${names.join(', ')}`, [{ field: 'cryptosuite', message: 'unsupported cryptosuite' }]);
  }
  const suite = format.vcApi.suite;
  const allowed = format.vcApi.keyTypes;
  if (keyType === undefined) return { suite, keyType: allowed[0]! };
  if (!(allowed as readonly string[]).includes(keyType)) {
    throw invalidInput(`${suite} signs with ${allowed.join(' or ')} keys, not ${keyType}`, [{ field: 'keyType', message: `must be ${allowed.join(' or ')}` }]);
  }
  return { suite, keyType: keyType as IssuerKeyType };
}

/** The format an issuer instance signs with; its suite was checked when the instance was created. */
export function issuingFormat(suite: string, formats: FormatRegistry = registered): W3cCredentialFormat {
  const format = formats.forIssuingSuite(suite);
  // Stored instances were created through checkSuiteAndKey: a missing format is a deployment that dropped one.
  if (!format) throw new Error(`no registered format signs with ${suite}`);
  return format;
}

/**
 * The Data Integrity suite that signs an instance's status list credentials (a status list is
 * fetched as JSON by verifiers of any kind): the format says which.
 */
export function dataIntegritySuiteOf(suite: IssuingSuite, keyType: IssuerKeyType, formats: FormatRegistry = registered): Exclude<IssuingSuite, 'vc+jwt'> {
  return issuingFormat(suite, formats).vcApi.statusListSuite(keyType);
}
