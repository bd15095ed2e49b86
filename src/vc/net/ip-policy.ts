import { isIP } from 'node:net';

/**
 * Addresses a server-side fetch must not reach unless the operator allows it. The decision is
 * made on the 16 bytes of the address, never on its spelling: `[::127.0.0.1]`, `[::7f00:1]`,
 * `[0:0:0:0:0:0:7f00:1]` and `[::ffff:127.0.0.1]` are one address each however they are written
 * (the WHATWG URL parser already rewrites `[::127.0.0.1]` to `[::7f00:1]`, which a text pattern
 * for dotted forms missed). IPv4 is decided as its IPv4-mapped IPv6 form.
 *
 * IPv6 is allowed only inside global unicast (2000::/3), minus the special-purpose blocks below,
 * plus the well-known NAT64 prefix 64:ff9b::/96 when the IPv4 address it carries is public.
 * Everything else (unspecified, loopback, IPv4-compatible, ULA, link- and site-local, multicast,
 * discard, local-use NAT64) falls outside 2000::/3 and is refused by construction.
 */

type Prefix = readonly [bytes: readonly number[], bits: number];

/** IPv4 blocks (IANA special-purpose registry): loopback, private, link-local (cloud metadata), CGNAT, documentation, multicast, reserved. */
const V4_BLOCKED: readonly Prefix[] = [
  [[0, 0, 0, 0], 8],
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10],
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16],
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 0, 2, 0], 24],
  // Deprecated 6to4 relay anycast (RFC 7526): whatever answers it is not the host named.
  [[192, 88, 99, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4],
  [[240, 0, 0, 0], 4],
];

/** Blocks inside 2000::/3 that are not ordinary hosts. */
const V6_BLOCKED_GLOBAL: readonly Prefix[] = [
  // IETF protocol assignments (RFC 2928): Teredo 2001::/32 (carries an obfuscated client
  // address anyone can pick), benchmarking, ORCHID, AS112, AMT: none is a document host.
  [[0x20, 0x01, 0x00, 0x00], 23],
  // Documentation (RFC 3849, RFC 9637).
  [[0x20, 0x01, 0x0d, 0xb8], 32],
  [[0x3f, 0xff], 20],
];

/** Prefixes whose last 4 bytes are an IPv4 address, judged as that address. */
const V4_CARRYING: readonly Prefix[] = [
  // IPv4-mapped ::ffff:0:0/96 (how IPv4 is represented here too).
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96],
  // Well-known NAT64 64:ff9b::/96 (RFC 6052): a public IPv4 behind it is legitimate.
  [[0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96],
];

function matches(bytes: Uint8Array, [prefix, bits]: Prefix, offset = 0): boolean {
  for (let i = 0; i < bits; i += 8) {
    const left = Math.min(8, bits - i);
    const mask = (0xff << (8 - left)) & 0xff;
    if (((bytes[offset + i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

/** The 4 bytes of a dotted-quad IPv4 address (already validated by isIP). */
function ipv4Bytes(ip: string): number[] {
  return ip.split('.').map(Number);
}

/**
 * The 16 bytes of an IP address in any textual form Node accepts (IPv4 as ::ffff:a.b.c.d; IPv6
 * with `::`, an embedded dotted quad, a zone id); undefined for anything that is not an address.
 */
export function addressBytes(input: string): Uint8Array | undefined {
  const ip = input.replace(/^\[|\]$/g, '');
  const family = isIP(ip);
  const out = new Uint8Array(16);
  if (family === 4) {
    out[10] = 0xff;
    out[11] = 0xff;
    out.set(ipv4Bytes(ip), 12);
    return out;
  }
  if (family !== 6) return undefined;
  // A zone id (fe80::1%eth0) names an interface, not part of the address.
  const text = ip.split('%')[0]!.toLowerCase();
  const groups = (part: string): number[] => {
    if (part === '') return [];
    const words: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(piece);
        words.push((a << 8) | b, (c << 8) | d);
      } else {
        words.push(parseInt(piece, 16));
      }
    }
    return words;
  };
  const gap = text.indexOf('::');
  const head = groups(gap === -1 ? text : text.slice(0, gap));
  const tail = gap === -1 ? [] : groups(text.slice(gap + 2));
  const words = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  if (words.length !== 8 || words.some((w) => !Number.isInteger(w) || w < 0 || w > 0xffff)) return undefined;
  words.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

function ipv4IsBlocked(bytes: Uint8Array, offset: number): boolean {
  return V4_BLOCKED.some((p) => matches(bytes, p, offset));
}

/** True for 16 address bytes a guarded fetch refuses by default. */
export function isNonPublicBytes(bytes: Uint8Array): boolean {
  const carrier = V4_CARRYING.find((p) => matches(bytes, p));
  if (carrier) return ipv4IsBlocked(bytes, 12);
  // 6to4 (2002::/16) routes to the IPv4 address in bytes 2..5: judged as that address.
  if (matches(bytes, [[0x20, 0x02], 16])) return ipv4IsBlocked(bytes, 2);
  if (!matches(bytes, [[0x20], 3])) return true;
  return V6_BLOCKED_GLOBAL.some((p) => matches(bytes, p));
}

/** True for an address a guarded fetch refuses by default (anything not a plain public unicast address). */
export function isNonPublicAddress(ip: string): boolean {
  const bytes = addressBytes(ip);
  // Not an address at all: refuse rather than guess.
  return bytes === undefined ? true : isNonPublicBytes(bytes);
}
