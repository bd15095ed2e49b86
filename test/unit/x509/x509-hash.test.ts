import { readFileSync } from 'node:fs';
import path from 'node:path';
import { calculateX509HashClientIdPrefixValue } from '@openid4vc/openid4vp';
import { createHash } from 'node:crypto';
import { parsePemCertificates, x509Hash } from '../../../src/x509';
import { testLeaf, testRoot } from '../../support/x509-test-ca';

describe('x509_hash (OID4VP 1.0 §5.9.3)', () => {
  test('matches the value OpenSSL computed for the fixture certificate', () => {
    // test/fixtures/x509/README.md: the expected value was computed with the openssl CLI.
    const [der] = parsePemCertificates(readFileSync(path.join(__dirname, '../../fixtures/x509/x509-hash-vector.pem'), 'utf8'));
    expect(x509Hash(der!)).toBe('RnR112dXHXRxEvnymAWTIa_bKEWHzeC2DtimA4wDUdo');
  });

  test('agrees with the OpenWallet Foundation library wallets use', async () => {
    const leaf = await testLeaf(await testRoot());
    const theirs = await calculateX509HashClientIdPrefixValue({
      x509Certificate: leaf.der,
      hash: async (data) => new Uint8Array(createHash('sha256').update(data).digest()),
    });
    expect(x509Hash(leaf.der)).toBe(theirs);
  });
});
