import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import { AppError } from '../../errors';

/**
 * The service's own DID method ("svcid" in the interface reference; `credgate` by default).
 *
 *   Family B DID      did:<method>:<network>:<identifier>
 *   stored document   did:<method>:<network>:<identifier>:<ledgerFileId>
 *   Family A DID      did:<method>:<network>:<identifier>;<method>:<network>:fid=<ledgerFileId>
 *
 * Ledger ids look like ledger entity ids: 0.0.<n>.
 */
export interface ServiceDidRef {
  readonly method: string;
  readonly network: string;
  readonly identifier: string;
  /** Present when the reference carried a ledger file id (document id or Family A form). */
  readonly ledgerFileId: string | undefined;
  /** The plain Family B form, the key under which the DID is stored. */
  readonly did: string;
}

const METHOD = '[a-z0-9]+';
const NETWORK = '[a-z0-9]+(?:-[a-z0-9]+)*';
const IDENT = '[1-9A-HJ-NP-Za-km-z]{16,64}';
const LEDGER_ID = '0\\.0\\.[1-9][0-9]*';
const PLAIN_RE = new RegExp(`^did:(${METHOD}):(${NETWORK}):(${IDENT})(?::(${LEDGER_ID}))?$`);
const FAMILY_A_RE = new RegExp(`^did:(${METHOD}):(${NETWORK}):(${IDENT});(${METHOD}):(${NETWORK}):fid=(${LEDGER_ID})$`);

/** DID Core syntax: did:<method-name>:<method-specific-id> (used to tell 400 from 501). */
const DID_CORE_RE = /^did:[a-z0-9]+:(?:(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})*:)*(?:[A-Za-z0-9._-]|%[0-9A-Fa-f]{2})+$/;

export function isDidSyntax(s: string): boolean {
  return DID_CORE_RE.test(s) || FAMILY_A_RE.test(s);
}

export function didMethodOf(s: string): string | undefined {
  return /^did:([a-z0-9]+):/.exec(s)?.[1];
}

export function formatLedgerId(seq: bigint | number): string {
  return `0.0.${seq.toString()}`;
}

export function formatServiceDid(method: string, network: string, identifier: string): string {
  return `did:${method}:${network}:${identifier}`;
}

export function formatDocumentId(did: string, ledgerFileId: string): string {
  return `${did}:${ledgerFileId}`;
}

export function formatFamilyADid(method: string, network: string, identifier: string, ledgerFileId: string): string {
  return `did:${method}:${network}:${identifier};${method}:${network}:fid=${ledgerFileId}`;
}

/**
 * Parses any of the three spellings of a service-method DID. Returns undefined for a
 * well-formed DID of another shape (e.g. another method); throws INVALID_DID for text that is
 * not a DID at all.
 */
export function parseServiceDid(s: string): ServiceDidRef | undefined {
  const a = FAMILY_A_RE.exec(s);
  if (a) {
    const [, method, network, identifier, method2, network2, fid] = a as unknown as string[];
    if (method !== method2 || network !== network2) {
      throw new AppError('INVALID_DID', 'the two halves of a Family A DID must name the same method and network');
    }
    return { method: method!, network: network!, identifier: identifier!, ledgerFileId: fid, did: formatServiceDid(method!, network!, identifier!) };
  }
  const p = PLAIN_RE.exec(s);
  if (p) {
    const [, method, network, identifier, fid] = p as unknown as [string, string, string, string, string | undefined];
    return { method, network, identifier, ledgerFileId: fid, did: formatServiceDid(method, network, identifier) };
  }
  if (!isDidSyntax(s)) throw new AppError('INVALID_DID', 'not a valid DID');
  return undefined;
}

/**
 * Derives the method-specific identifier from the tenant and the key, so registering the same
 * key twice in a tenant is idempotent while two tenants never collide on (or learn about) each
 * other's DIDs. 128 bits of SHA-256, base58btc.
 */
export function deriveServiceDidIdentifier(tenantId: string, algorithm: string, publicKey: Uint8Array): string {
  const h = createHash('sha256')
    .update('credgate-did-v1\0')
    .update(tenantId)
    .update('\0')
    .update(algorithm)
    .update('\0')
    .update(publicKey)
    .digest();
  return base58.encode(h.subarray(0, 16));
}
