import type { JsonObject, VcProblem } from '../ports';
import { credentialVersion } from './version';
import { instantOf, problem } from './values';

/**
 * Whether `now` lies in the credential's validity period: issuanceDate/expirationDate (1.1) or
 * validFrom/validUntil (2.0). Bounds are inclusive. Unparseable dates are left to the shape check.
 */
export function checkValidityPeriod(vc: JsonObject, now: Date): VcProblem[] {
  const version = credentialVersion(vc);
  if (version === undefined) return [];
  const [fromName, untilName] = version === '1.1' ? ['issuanceDate', 'expirationDate'] : ['validFrom', 'validUntil'];
  const from = instantOf(vc[fromName]);
  const until = instantOf(vc[untilName]);
  const at = now.getTime();
  const problems: VcProblem[] = [];
  if (from !== undefined && at < from) problems.push(problem('NOT_YET_VALID', 'the credential is not valid yet', `${fromName} ${String(vc[fromName])}`));
  if (until !== undefined && at > until) problems.push(problem('EXPIRED', 'the credential has expired', `${untilName} ${String(vc[untilName])}`));
  return problems;
}
