import { didMethodOf, parseServiceDid } from '../../domain/dids/service-did';
/**
 * Shape checks for Family B ids, applied before any database query: template, status-list and
 * record ids are PostgreSQL `uuid` columns, and a string that is not a UUID would reach the
 * server's cast and fail there (a 500 that logged Prisma internals). A malformed id names no
 * record, so callers answer it exactly like an unknown one.
 */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CREDENTIAL_ID_RE = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(v: unknown): v is string {
  return typeof v === 'string' && UUID_RE.test(v);
}

/** Family B credential ids are `urn:uuid:<uuid>` (see FamilyBCredentialsService.issue). */
export function isCredentialId(v: unknown): v is string {
  return typeof v === 'string' && CREDENTIAL_ID_RE.test(v);
}

/** A service DID without its ledger-file suffix (did:key and other methods unchanged), for comparing holders. */
export function plainDid(did: string): string {
  if (didMethodOf(did) === 'key') return did;
  try {
    return parseServiceDid(did)?.did ?? did;
  } catch {
    return did;
  }
}
