/**
 * The compact serialization `<issuer-jwt>~<disclosure>~…~<kb-jwt or empty>` (SD-JWT §4): the
 * issuer-signed JWT, its disclosures, and an optional key-binding JWT after the last `~`.
 */
export interface SplitSdJwt {
  readonly jwt: string;
  readonly disclosures: readonly string[];
  /** The KB-JWT, or undefined when the serialization ends in `~`. */
  readonly kbJwt: string | undefined;
  /** Everything up to and including the last `~`: what the KB-JWT's `sd_hash` covers. */
  readonly presented: string;
}

/** Null when `compact` is not an SD-JWT (no `~`, or an empty disclosure in the middle). */
export function splitSdJwt(compact: string): SplitSdJwt | null {
  const parts = compact.split('~');
  if (parts.length < 2) return null;
  const jwt = parts[0]!;
  const last = parts[parts.length - 1]!;
  const disclosures = parts.slice(1, -1);
  if (jwt.length === 0 || disclosures.some((d) => d.length === 0)) return null;
  const presented = compact.slice(0, compact.length - last.length);
  return { jwt, disclosures, kbJwt: last.length > 0 ? last : undefined, presented };
}
