import { addressBytes, isNonPublicAddress } from '../../../src/vc/net/ip-policy';
import { FetchError, guardedGet } from '../../../src/vc/net/guarded-fetch';

/*
 * Review 3, attack 6: the SSRF policy decided on spellings, so `https://[::127.0.0.1]/` (which
 * the URL parser turns into [::7f00:1]), local-use NAT64 and Teredo got through. Every spelling
 * below is one of a handful of loopback/private addresses; each must be refused, and public
 * addresses, however written, must still pass.
 */

const NON_PUBLIC = [
  // IPv4 loopback, private, link-local/metadata, CGNAT, unspecified, broadcast, 6to4 relay.
  '127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '192.88.99.1',
  // IPv6 loopback and unspecified, every way.
  '::1', '0:0:0:0:0:0:0:1', '0000:0000:0000:0000:0000:0000:0000:0001', '::', '0::0',
  // IPv4-compatible ::/96 (deprecated): the form the URL parser makes of [::127.0.0.1].
  '::127.0.0.1', '::7f00:1', '0:0:0:0:0:0:7f00:1', '::a9fe:a9fe', '::8.8.8.8',
  // IPv4-mapped ::ffff:0:0/96 with a private address, dotted and hex.
  '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::FFFF:A9FE:A9FE', '::ffff:10.0.0.1',
  // IPv4-translated (SIIT) ::ffff:0:0:0/96.
  '::ffff:0:7f00:1',
  // Well-known NAT64 64:ff9b::/96 carrying a private IPv4.
  '64:ff9b::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b:0:0:0:0:a00:1', '64:ff9b::a9fe:a9fe',
  // Local-use NAT64 64:ff9b:1::/48 (RFC 8215): an operator's own translator, whatever it carries.
  '64:ff9b:1::808:808', '64:ff9b:1:ffff::1',
  // Teredo 2001::/32 and the rest of the IETF protocol block 2001::/23.
  '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:2::1', '2001:10::1',
  // 6to4 2002::/16 embedding a private IPv4.
  '2002:7f00:1::1', '2002:a00:1::', '2002:c0a8:101::1', '2002:a9fe:a9fe::',
  // ULA, link-local (with a zone id), site-local, multicast, documentation, discard-only.
  'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1', '2001:db8::1', '3fff::1', '100::1',
  // Not an address at all.
  'localhost', 'not-an-ip', '',
];

const PUBLIC = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'];

test('every spelling of loopback, private, link-local and special-purpose addresses is refused', () => {
  for (const ip of NON_PUBLIC) expect([ip, isNonPublicAddress(ip)]).toEqual([ip, true]);
});

test('public addresses pass, whichever IPv4-carrying form they come in', () => {
  for (const ip of PUBLIC) expect([ip, isNonPublicAddress(ip)]).toEqual([ip, false]);
});

test('addresses are compared as their 16 bytes', () => {
  const loop = addressBytes('::ffff:127.0.0.1');
  expect(addressBytes('127.0.0.1')).toEqual(loop);
  expect(addressBytes('::ffff:7f00:1')).toEqual(loop);
  expect(addressBytes('[0:0:0:0:0:ffff:7f00:1]')).toEqual(loop);
  expect(addressBytes('::127.0.0.1')).toEqual(addressBytes('::7f00:1'));
  expect(Buffer.from(addressBytes('2001:db8::ff00:42:8329')!).toString('hex')).toBe('20010db8000000000000ff0000428329');
  expect(addressBytes('300.1.1.1')).toBeUndefined();
});

test.each([
  ['https://[::127.0.0.1]/x'],
  ['https://[::ffff:127.0.0.1]/x'],
  ['https://[64:ff9b:1::1]/x'],
  ['https://[2001::1]/x'],
  ['https://[2002:7f00:1::]/x'],
  ['https://0x7f.1/x'],
  ['https://2130706433/x'],
  ['https://127.1/x'],
])('a guarded fetch of %s is refused before any connection', async (url) => {
  const err = await guardedGet(url, { timeoutMs: 1000, maxBytes: 1024, allowPrivate: false }, { accept: '*/*', contentTypes: ['application/json'] }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(FetchError);
  expect((err as FetchError).kind).toBe('blocked');
});
