import { BlockList, isIP } from 'node:net';

/**
 * Addresses a server-side fetch must not reach unless the operator allows it: loopback, private
 * (RFC 1918, ULA), link-local (incl. cloud metadata 169.254.169.254), CGNAT, unspecified,
 * multicast, reserved and the IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4).
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (::ffff:a.b.c.d, ::a.b.c.d, 64:ff9b::/96, 2002::/16), if any. */
function embeddedIpv4(ip: string): string | undefined {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) return hexPairToIpv4(hex[1]!, hex[2]!);
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/.exec(lower);
  if (sixToFour) return hexPairToIpv4(sixToFour[1]!, sixToFour[2]!);
  return undefined;
}

function hexPairToIpv4(hi: string, lo: string): string {
  const a = parseInt(hi, 16);
  const b = parseInt(lo, 16);
  return [a >> 8, a & 0xff, b >> 8, b & 0xff].join('.');
}

/** True for an address a guarded fetch refuses by default (anything not a plain public unicast address). */
export function isNonPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return BLOCKED.check(ip, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4 !== undefined && isIP(v4) === 4) return BLOCKED.check(v4, 'ipv4');
    return BLOCKED.check(ip, 'ipv6');
  }
  // Not an address at all: refuse rather than guess.
  return true;
}
