/** A claim path as OID4VP/DCQL names it: object keys and array indices. */
export type ClaimPath = readonly (string | number)[];

/**
 * Whether a disclosed path was asked for: it lies on or under a requested path (null in a request
 * path matches any array index), or is an ancestor needed to reach one.
 */
export function pathRequested(disclosed: ClaimPath, requested: readonly (readonly (string | number | null)[])[]): boolean {
  return requested.some((req) => {
    const n = Math.min(req.length, disclosed.length);
    for (let i = 0; i < n; i++) {
      const r = req[i];
      if (r === null) {
        if (typeof disclosed[i] !== 'number') return false;
      } else if (r !== disclosed[i]) return false;
    }
    return true;
  });
}
