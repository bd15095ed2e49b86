import { isNonPublicAddress } from '../../../src/vc/net/ip-policy';

test('loopback, private, link-local, CGNAT, metadata and IPv4-embedding IPv6 forms are non-public', () => {
  for (const ip of [
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', '2002:7f00:1::1', '2002:c0a8:101::',
    'localhost', 'not-an-ip',
  ]) {
    expect([ip, isNonPublicAddress(ip)]).toEqual([ip, true]);
  }
});

test('public unicast addresses are allowed', () => {
  for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1']) {
    expect([ip, isNonPublicAddress(ip)]).toEqual([ip, false]);
  }
});
