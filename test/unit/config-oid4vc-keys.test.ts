import path from 'node:path';
import { ConfigError } from '../../src/config';
import { parseOid4vcKeys } from '../../src/config/oid4vc-keys';

describe('CREDGATE_OID4VC_* configuration', () => {
  test('unset: no files (the service generates its issuing CA)', () => {
    expect(parseOid4vcKeys({}, '/srv')).toEqual({});
  });

  test('paths are resolved against the working directory', () => {
    const env = { CREDGATE_OID4VC_ISSUER_CERT_FILE: 'certs/chain.pem', CREDGATE_OID4VC_ISSUER_KEY_FILE: '/etc/credgate/key.pem', CREDGATE_OID4VC_TRUST_ANCHORS_FILE: 'anchors.pem' };
    expect(parseOid4vcKeys(env, '/srv')).toEqual({
      issuerCertFile: path.resolve('/srv', 'certs/chain.pem'),
      issuerKeyFile: '/etc/credgate/key.pem',
      trustAnchorsFile: path.resolve('/srv', 'anchors.pem'),
    });
  });

  test('a certificate without its key, or a key without its certificate, is refused', () => {
    expect(() => parseOid4vcKeys({ CREDGATE_OID4VC_ISSUER_CERT_FILE: 'c.pem' }, '/srv')).toThrow(ConfigError);
    expect(() => parseOid4vcKeys({ CREDGATE_OID4VC_ISSUER_KEY_FILE: 'k.pem' }, '/srv')).toThrow(/go together/);
  });
});
