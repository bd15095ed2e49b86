import { invalidInput } from '../../errors';

/**
 * The checks POST /credentials/verify runs (VC-API `options.checks`), in the order they run:
 * - proof: every proof verifies with a method its controller lists for assertions;
 * - issuer: every proof's method is controlled by the credential's issuer (needs `proof`);
 * - validity: now lies in the validity period;
 * - credentialStatus: every status entry, against its signed list (when the credential has any);
 * - relatedResource: every related resource fetched and compared with its digest (VCDM 2.0 §5.3).
 * All of them run unless the caller names some; shape rules are input validation and always run.
 */
export const CREDENTIAL_CHECKS = ['proof', 'issuer', 'validity', 'credentialStatus', 'relatedResource'] as const;
export type CredentialCheck = (typeof CREDENTIAL_CHECKS)[number];

const bad = (message: string): never => {
  throw invalidInput(`options.checks ${message}`, [{ field: 'options.checks', message }]);
};

/**
 * The checks asked for. A check we do not perform is refused rather than ignored: answering
 * `verified: true` would claim it passed.
 */
export function credentialChecksOf(options: Record<string, unknown> | undefined): ReadonlySet<CredentialCheck> {
  const given = options?.['checks'];
  if (given === undefined) return new Set(CREDENTIAL_CHECKS);
  if (!Array.isArray(given) || given.length === 0) return bad(`must be a non-empty list of ${CREDENTIAL_CHECKS.join(', ')}`);
  const checks = new Set<CredentialCheck>();
  for (const c of given) {
    if (typeof c !== 'string' || !(CREDENTIAL_CHECKS as readonly string[]).includes(c)) return bad(`must name only ${CREDENTIAL_CHECKS.join(', ')}; got ${JSON.stringify(c)}`);
    checks.add(c as CredentialCheck);
  }
  // The binding is between the issuer and the keys that made the proofs: without the proof check
  // there is no verified key to bind.
  if (checks.has('issuer') && !checks.has('proof')) bad('issuer needs proof: the issuer is bound to the keys that made the proofs');
  return checks;
}
