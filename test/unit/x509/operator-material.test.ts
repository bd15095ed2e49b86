import { createPrivateKey, generateKeyPairSync, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../../src/config';
import { toPem } from '../../../src/x509';
import { loadOid4vcMaterial } from '../../../src/x509/operator-material';
import { testIntermediate, testLeaf, testRoot } from '../../support/x509-test-ca';

/** Reading CREDGATE_OID4VC_ISSUER_CERT_FILE / _KEY_FILE / _TRUST_ANCHORS_FILE at start-up. */
describe('loadOid4vcMaterial', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'credgate-operator-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    const f = path.join(dir, name);
    writeFileSync(f, text);
    return f;
  };

  test('nothing configured: no operator material, no anchors', async () => {
    await expect(loadOid4vcMaterial(undefined)).resolves.toEqual({ anchors: [] });
    await expect(loadOid4vcMaterial({})).resolves.toEqual({ anchors: [] });
  });

  test('a SEC1 ("EC PRIVATE KEY") key is read as well as PKCS#8; anchors come in file order', async () => {
    const root = await testRoot();
    const mid = await testIntermediate(root);
    const leaf = await testLeaf(mid);
    const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', leaf.keys.privateKey));
    const sec1 = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'pem', type: 'sec1' }).toString();
    expect(sec1).toContain('BEGIN EC PRIVATE KEY');
    const loaded = await loadOid4vcMaterial({
      issuerCertFile: file('chain.pem', toPem(leaf.der) + toPem(mid.certificate)),
      issuerKeyFile: file('sec1.pem', sec1),
      trustAnchorsFile: file('anchors.pem', toPem(root.certificate) + toPem(mid.certificate)),
    });
    expect(loaded.operator?.isCa).toBe(false);
    expect(loaded.operator?.chain).toEqual([leaf.der, mid.certificate]);
    expect(loaded.anchors).toEqual([root.certificate, mid.certificate]);
  });

  test('a key that is not P-256 is refused (HAIP signs ES256)', async () => {
    const root = await testRoot();
    const leaf = await testLeaf(root);
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    for (const key of [p384, ed]) {
      const e = await loadOid4vcMaterial({ issuerCertFile: file('c.pem', toPem(leaf.der)), issuerKeyFile: file('k.pem', key) }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as Error).message).toMatch(/must be an EC P-256 key/);
    }
    const notAKey = await loadOid4vcMaterial({ issuerCertFile: file('c.pem', toPem(leaf.der)), issuerKeyFile: file('k.pem', 'garbage') }).catch((err: unknown) => err);
    expect((notAKey as Error).message).toMatch(/is not a PEM private key/);
    const badCert = await loadOid4vcMaterial({ trustAnchorsFile: file('bad.pem', '-----BEGIN CERTIFICATE-----\nMAMCAQE=\n-----END CERTIFICATE-----\n') }).catch((err: unknown) => err);
    expect(badCert).toBeInstanceOf(ConfigError);
    expect((badCert as Error).message).toMatch(/cannot be read/);
  });
});
