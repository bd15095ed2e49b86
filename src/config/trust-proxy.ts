import { isIP } from 'node:net';
import { ConfigError, nonEmpty } from './settings';

/**
 * Which reverse proxies may name the client (CREDGATE_TRUST_PROXY). Off by default: a client
 * that reaches the service directly could otherwise pick its own address with X-Forwarded-For
 * and dodge every per-address limit. Behind a proxy, though, every client shares the proxy's
 * address (one OAuth lockout, one public-route budget for all), so the operator names the hops.
 *
 *  - `off`: the socket peer is the client (X-Forwarded-For is ignored);
 *  - `hops`: the last `hops` addresses (the peer, then X-Forwarded-For from the right) are
 *    proxies, whatever they are; only for a service reachable solely through those proxies;
 *  - `addresses`: a peer (and each X-Forwarded-For entry from the right) inside one of these
 *    addresses or CIDR ranges (or `loopback`, `linklocal`, `uniquelocal`) is a proxy; the first
 *    address outside them is the client.
 */
export type TrustProxy =
  | { readonly kind: 'off' }
  | { readonly kind: 'hops'; readonly hops: number }
  | { readonly kind: 'addresses'; readonly addresses: readonly string[] };

const NAME = 'CREDGATE_TRUST_PROXY';
/** The pre-set ranges express (proxy-addr) understands by name. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 32;

function validAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const ip = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(ip);
  if (family === 0) return false;
  if (slash < 0) return true;
  const bits = entry.slice(slash + 1);
  // A prefix length only: proxy-addr also takes dotted netmasks, but one spelling is enough.
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** CREDGATE_TRUST_PROXY: unset/`false`/`off`/`0`, a hop count, or a comma-separated address/CIDR list. */
export function parseTrustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = nonEmpty(env, NAME);
  if (raw === undefined || ['false', 'off', 'no', '0'].includes(raw.toLowerCase())) return Object.freeze({ kind: 'off' });
  // `true` would trust every hop and let any client name its own address: refused, not guessed at.
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > MAX_HOPS) throw new ConfigError(`${NAME} must be off, a hop count from 0 to ${MAX_HOPS}, or addresses/CIDR ranges`);
    return Object.freeze({ kind: 'hops', hops });
  }
  const entries = raw.split(',').map((e) => e.trim().toLowerCase());
  const bad = entries.find((e) => !validAddress(e));
  if (bad !== undefined) {
    throw new ConfigError(`${NAME} must be off, a hop count, or comma-separated addresses/CIDR ranges (or loopback, linklocal, uniquelocal); "${bad}" is none of these`);
  }
  return Object.freeze({ kind: 'addresses', addresses: Object.freeze([...new Set(entries)]) });
}

/** The value of express's `trust proxy` setting for this choice. */
export function expressTrustProxy(t: TrustProxy): boolean | number | string[] {
  switch (t.kind) {
    case 'off':
      return false;
    case 'hops':
      return t.hops;
    case 'addresses':
      return [...t.addresses];
  }
}
