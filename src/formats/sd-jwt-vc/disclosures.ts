import { decodeB64urlJson, sha256B64url } from './jose';
import { RESERVED_CLAIMS } from './issue';
import type { SdJwtProblem } from './types';

/**
 * Replaces the digests of an SD-JWT payload by the disclosed claims (SD-JWT §7.1), strictly:
 * every disclosure must be well formed, distinct, and referenced exactly once; a digest may
 * appear only once in the whole payload; a disclosed name may not collide with a name already
 * at its level; `_sd` and `...` are never claim names. Unreferenced digests are decoys or
 * claims not shown, and are dropped.
 */
export interface ResolvedClaims {
  readonly claims: Record<string, unknown>;
  /** Paths of the claims that were disclosed (selectively), e.g. [['address', 'street']]. */
  readonly disclosed: readonly (readonly (string | number)[])[];
  readonly problems: readonly SdJwtProblem[];
}

interface Disclosure {
  readonly digest: string;
  /** Undefined for an array element disclosure. */
  readonly name: string | undefined;
  readonly value: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseDisclosure(encoded: string): Disclosure | string {
  let decoded: unknown;
  try {
    decoded = decodeB64urlJson(encoded);
  } catch {
    return 'a disclosure is not base64url-encoded JSON';
  }
  if (!Array.isArray(decoded) || (decoded.length !== 2 && decoded.length !== 3) || typeof decoded[0] !== 'string') return 'a disclosure is not [salt, name, value] or [salt, value]';
  if (decoded.length === 3) {
    const name = decoded[1];
    if (typeof name !== 'string') return 'a disclosure names its claim with a non-string';
    if (name === '_sd' || name === '...') return `a disclosure uses the reserved claim name ${name}`;
    return { digest: sha256B64url(encoded), name, value: decoded[2] };
  }
  return { digest: sha256B64url(encoded), name: undefined, value: decoded[1] };
}

export function resolveDisclosures(payload: Record<string, unknown>, encoded: readonly string[]): ResolvedClaims {
  const problems: SdJwtProblem[] = [];
  const byDigest = new Map<string, Disclosure>();
  for (const e of encoded) {
    const d = parseDisclosure(e);
    if (typeof d === 'string') {
      problems.push({ code: 'malformed', message: d });
      continue;
    }
    if (byDigest.has(d.digest)) problems.push({ code: 'duplicate_disclosure', message: 'the same disclosure is presented twice' });
    else byDigest.set(d.digest, d);
  }
  const seenDigests = new Set<string>();
  const used = new Set<string>();
  const disclosed: (string | number)[][] = [];

  const take = (digest: unknown): Disclosure | undefined => {
    if (typeof digest !== 'string') {
      problems.push({ code: 'malformed', message: 'a digest is not a string' });
      return undefined;
    }
    if (seenDigests.has(digest)) {
      problems.push({ code: 'duplicate_digest', message: 'a digest appears more than once in the credential' });
      return undefined;
    }
    seenDigests.add(digest);
    const d = byDigest.get(digest);
    if (d) used.add(digest);
    return d;
  };

  const walk = (value: unknown, path: (string | number)[]): unknown => {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const element of value) {
        if (isObject(element) && Object.hasOwn(element, '...')) {
          if (Object.keys(element).length !== 1) {
            problems.push({ code: 'malformed', message: 'an array element digest object has other members' });
            continue;
          }
          const d = take(element['...']);
          if (!d) continue;
          if (d.name !== undefined) {
            problems.push({ code: 'malformed', message: 'an object property disclosure is referenced from an array' });
            continue;
          }
          disclosed.push([...path, out.length]);
          out.push(walk(d.value, [...path, out.length]));
        } else {
          out.push(walk(element, [...path, out.length]));
        }
      }
      return out;
    }
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '_sd' || (k === '_sd_alg' && path.length === 0)) continue;
      out[k] = walk(v, [...path, k]);
    }
    const digests = value['_sd'];
    if (digests !== undefined) {
      if (!Array.isArray(digests)) {
        problems.push({ code: 'malformed', message: '_sd is not an array' });
        return out;
      }
      for (const digest of digests) {
        const d = take(digest);
        if (!d) continue;
        if (d.name === undefined) {
          problems.push({ code: 'malformed', message: 'an array element disclosure is referenced from _sd' });
          continue;
        }
        if (path.length === 0 && RESERVED_CLAIMS.has(d.name)) {
          // A disclosed cnf, status or exp would let whoever holds the disclosures rewrite them.
          problems.push({ code: 'malformed', message: `claim ${d.name} must not be selectively disclosed` });
          continue;
        }
        if (Object.hasOwn(out, d.name)) {
          problems.push({ code: 'duplicate_claim', message: `claim ${d.name} appears more than once` });
          continue;
        }
        disclosed.push([...path, d.name]);
        out[d.name] = walk(d.value, [...path, d.name]);
      }
    }
    return out;
  };

  const claims = walk(payload, []) as Record<string, unknown>;
  for (const digest of byDigest.keys()) {
    if (!used.has(digest)) problems.push({ code: 'unreferenced_disclosure', message: 'a disclosure is not referenced by the credential' });
  }
  return { claims, disclosed, problems };
}
