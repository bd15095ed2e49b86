import { ConfigError, parseConfig } from '../../src/config';
import { expressTrustProxy } from '../../src/config/trust-proxy';

/** CREDGATE_TRUST_PROXY (issue 17, attack 4): parsed once, off unless the operator names the hops. */
describe('CREDGATE_TRUST_PROXY', () => {
  const parse = (value: string | undefined) => parseConfig(value === undefined ? {} : { CREDGATE_TRUST_PROXY: value }, '/srv/app').trustProxy;

  test('off by default and for the usual spellings of off; express then trusts nothing', () => {
    for (const v of [undefined, '', '  ', 'false', 'off', 'OFF', 'no', '0']) expect(parse(v)).toEqual({ kind: 'off' });
    expect(expressTrustProxy({ kind: 'off' })).toBe(false);
  });

  test('a hop count', () => {
    expect(parse('1')).toEqual({ kind: 'hops', hops: 1 });
    expect(parse('3')).toEqual({ kind: 'hops', hops: 3 });
    expect(expressTrustProxy({ kind: 'hops', hops: 2 })).toBe(2);
  });

  test('addresses, CIDR ranges (IPv4 and IPv6) and express\'s named ranges, comma-separated', () => {
    expect(parse('10.0.0.0/8, 192.168.1.7,fd00::/8, ::1, loopback,UniqueLocal')).toEqual({
      kind: 'addresses',
      addresses: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1', 'loopback', 'uniquelocal'],
    });
    expect(expressTrustProxy({ kind: 'addresses', addresses: ['10.0.0.0/8'] })).toEqual(['10.0.0.0/8']);
  });

  test('anything else stops start-up with a one-line reason, `true` included (it would let any client pick its address)', () => {
    for (const v of ['true', 'yes', 'all', '33', '-1', '1.5', '10.0.0.0/33', '::1/129', '10.0.0.0/', '10.0.0/8', '10.0.0.0/255.0.0.0', 'example.com', '10.0.0.1,,10.0.0.2', '10.0.0.1;10.0.0.2']) {
      expect(() => parse(v)).toThrow(ConfigError);
      expect(() => parse(v)).toThrow(/^CREDGATE_TRUST_PROXY must be/);
    }
  });
});
