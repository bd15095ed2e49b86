import { AppError } from '../../errors';
import { didMethodOf, isDidSyntax, parseServiceDid } from '../dids/service-did';
import type { Actor, Scope } from './actor';

/**
 * Holder-bound API keys. A key bound to a holder DID acts only for that holder: it may use that
 * holder's custodial key and read that holder's credentials, and everything else of the tenant
 * is "not found" to it. Services enforce this (the actor carries the DID); adapters do not.
 *
 * An unbound holder key keeps its historical, tenant-wide reach (compatibility): operators who
 * want per-holder isolation issue bound keys.
 */

/** Scopes a bound key may carry: binding an issuer or admin key would bind nothing. */
export const BINDABLE_SCOPES: readonly Scope[] = ['holder', 'verifier'];

/**
 * One spelling per holder: a service-method DID in any of its three forms (plain, with the
 * ledger file id, Family A `;…fid=`) becomes the plain `did:<method>:<network>:<id>`; other
 * methods (did:key) are compared as written. Throws INVALID_DID for text that is not a DID.
 */
export function canonicalHolderDid(did: string): string {
  if (!isDidSyntax(did)) throw new AppError('INVALID_DID', 'holder DID is not a valid DID', [{ field: 'holderDid', message: 'not a DID' }]);
  if (didMethodOf(did) === 'key') return did;
  return parseServiceDid(did)?.did ?? did;
}

/** The canonical form, or undefined for anything that is not a DID (never throws). */
function tryCanonical(did: string | null | undefined): string | undefined {
  if (typeof did !== 'string' || did === '') return undefined;
  try {
    return canonicalHolderDid(did);
  } catch {
    return undefined;
  }
}

export function isHolderBound(actor: Actor): boolean {
  return actor.holderDid !== undefined;
}

/**
 * May `actor` act for (use the key of, read the records of) the holder `did`? Unbound actors
 * may (tenant-wide, as before); a bound actor only for its own DID, in any spelling.
 */
export function mayActFor(actor: Actor, did: string | null | undefined): boolean {
  if (actor.holderDid === undefined) return true;
  const c = tryCanonical(did);
  return c !== undefined && c === actor.holderDid;
}
