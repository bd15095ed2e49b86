import { createHash } from 'node:crypto';

const sha256 = (data: string): Buffer => createHash('sha256').update(data).digest();

/**
 * Which claim paths an SD-JWT presentation discloses: the paths of the disclosures it carries,
 * found by matching each disclosure's digest in the issuer-signed payload (`_sd` of objects,
 * `{"...": digest}` of arrays), nested disclosures included. Always-visible claims (iss, vct,
 * cnf, status, ...) are not disclosures and are never counted.
 */
export type ClaimPath = readonly (string | number)[];

interface Disclosure {
  readonly digest: string;
  readonly name?: string;
  readonly value: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function decodeSegment(segment: string): unknown {
  const json = Buffer.from(segment.split('.')[1] ?? '', 'base64url').toString('utf8');
  return JSON.parse(json) as unknown;
}

/** Splits `<jwt>~<d1>~...~<dn>~[<kb-jwt>]`; throws on anything that is not that shape. */
export function splitSdJwt(compact: string): { jwt: string; disclosures: string[]; kbJwt?: string } {
  const parts = compact.split('~');
  if (parts.length < 2) throw new Error('not an SD-JWT (no ~)');
  const jwt = parts[0]!;
  const last = parts[parts.length - 1]!;
  const disclosures = parts.slice(1, -1).filter((d) => d.length > 0);
  return { jwt, disclosures, ...(last.length > 0 ? { kbJwt: last } : {}) };
}

function parseDisclosure(encoded: string): Disclosure {
  const decoded = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as unknown;
  if (!Array.isArray(decoded) || (decoded.length !== 2 && decoded.length !== 3)) throw new Error('malformed disclosure');
  const digest = sha256(encoded).toString('base64url');
  return decoded.length === 3 ? { digest, name: String(decoded[1]), value: decoded[2] } : { digest, value: decoded[1] };
}

/** The disclosed claim paths of a presentation; throws when the SD-JWT cannot be decoded. */
export function disclosedPaths(compact: string): ClaimPath[] {
  const { jwt, disclosures } = splitSdJwt(compact);
  const payload = decodeSegment(jwt);
  const byDigest = new Map(disclosures.map((d) => parseDisclosure(d)).map((d) => [d.digest, d]));
  const out: ClaimPath[] = [];
  const walk = (node: unknown, path: ClaimPath): void => {
    if (Array.isArray(node)) {
      node.forEach((el, i) => {
        if (isRecord(el) && typeof el['...'] === 'string' && Object.keys(el).length === 1) {
          const d = byDigest.get(el['...']);
          if (d) {
            out.push([...path, i]);
            walk(d.value, [...path, i]);
          }
        } else walk(el, [...path, i]);
      });
      return;
    }
    if (!isRecord(node)) return;
    const sd = node['_sd'];
    if (Array.isArray(sd)) {
      for (const digest of sd) {
        const d = typeof digest === 'string' ? byDigest.get(digest) : undefined;
        if (d?.name !== undefined) {
          out.push([...path, d.name]);
          walk(d.value, [...path, d.name]);
        }
      }
    }
    for (const [k, v] of Object.entries(node)) if (k !== '_sd' && k !== '_sd_alg') walk(v, [...path, k]);
  };
  walk(payload, []);
  return out;
}
