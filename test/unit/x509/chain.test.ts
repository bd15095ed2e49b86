import { createPublicKey, webcrypto, X509Certificate as NodeX509 } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { derToX5c, MAX_CHAIN_LENGTH, parsePemCertificates, toPem, validateChain, x5cToDer } from '../../../src/x509';
import { rejection } from '../../support/app-error';
import { INSIDE, rawCertificate, testIntermediate, testLeaf, testRoot, VALID_FROM, VALID_UNTIL } from '../../support/x509-test-ca';

/** Awaits a rejection with this AppError code (and message part). */
async function refused(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  const e = await rejection(p);
  expect(e.code).toBe(code);
  if (message) expect(e.message).toMatch(message);
}

async function jwkOf(key: webcrypto.CryptoKey): Promise<webcrypto.JsonWebKey> {
  const jwk = await webcrypto.subtle.exportKey('jwk', key);
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}

describe('validateChain', () => {
  test('a leaf issued by an anchor validates, with its key, SAN and x509_hash', async () => {
    const root = await testRoot();
    const leaf = await testLeaf(root, { dnsNames: ['issuer.example.org'], uris: ['https://issuer.example.org/tenant'] });
    const valid = await validateChain([leaf.der], [root.certificate], INSIDE);
    expect(valid.publicJwk).toEqual(await jwkOf(leaf.keys.publicKey));
    expect(valid.san).toEqual({ dnsNames: ['issuer.example.org'], uris: ['https://issuer.example.org/tenant'] });
    expect(Buffer.from(valid.anchor).equals(Buffer.from(root.certificate))).toBe(true);
    // The leaf is what our generator says it is: not a CA, digitalSignature only, both critical.
    const cert = new x509.X509Certificate(leaf.der);
    expect(cert.getExtension(x509.BasicConstraintsExtension)).toMatchObject({ ca: false, critical: true });
    expect(cert.getExtension(x509.KeyUsagesExtension)).toMatchObject({ usages: x509.KeyUsageFlags.digitalSignature, critical: true });
  });

  test('leaf → intermediate → root validates with or without the root in the chain', async () => {
    const root = await testRoot();
    const mid = await testIntermediate(root);
    const leaf = await testLeaf(mid);
    await expect(validateChain([leaf.der, mid.certificate], [root.certificate], INSIDE)).resolves.toMatchObject({ x509Hash: expect.any(String) });
    await expect(validateChain([leaf.der, mid.certificate, root.certificate], [root.certificate], INSIDE)).resolves.toBeDefined();
    // The intermediate itself may be the anchor (an operator trusting its issuing CA only).
    await expect(validateChain([leaf.der], [mid.certificate], INSIDE)).resolves.toBeDefined();
  });

  test('an expired or not yet valid certificate is refused', async () => {
    const root = await testRoot();
    const leaf = await testLeaf(root, { notBefore: new Date('2027-01-01T00:00:00Z'), notAfter: new Date('2028-01-01T00:00:00Z') });
    await expect(validateChain([leaf.der], [root.certificate], new Date('2027-06-01T00:00:00Z'))).resolves.toBeDefined();
    await refused(validateChain([leaf.der], [root.certificate], new Date('2028-01-01T00:00:01Z')), 'VERIFICATION_FAILED', /expired/);
    await refused(validateChain([leaf.der], [root.certificate], new Date('2026-12-31T23:59:59Z')), 'VERIFICATION_FAILED', /not valid yet/);
    // An expired anchor anchors nothing.
    await refused(validateChain([leaf.der], [root.certificate], new Date(VALID_UNTIL.getTime() + 1000)), 'VERIFICATION_FAILED', /expired/);
  });

  test('a chain to another root is refused, and so is a self-signed certificate that is not an anchor', async () => {
    const root = await testRoot('Root A');
    const other = await testRoot('Root B');
    const leaf = await testLeaf(root);
    await refused(validateChain([leaf.der], [other.certificate], INSIDE), 'VERIFICATION_FAILED', /trusted anchor/);
    // Same subject name, other key: the name matches, the signature does not.
    const impostor = await testRoot('Root A');
    await refused(validateChain([leaf.der], [impostor.certificate], INSIDE), 'VERIFICATION_FAILED', /trusted anchor/);
    await refused(validateChain([leaf.der, root.certificate], [other.certificate], INSIDE), 'VERIFICATION_FAILED', /trusted anchor/);
    await refused(validateChain([leaf.der], [], INSIDE), 'VERIFICATION_FAILED', /no trust anchors/);
  });

  test('an intermediate without the CA flag cannot issue, whatever it signed', async () => {
    const root = await testRoot();
    // Signed by the root, but basicConstraints cA false (and then absent): an end entity posing as a CA.
    for (const extensions of [[new x509.BasicConstraintsExtension(false, undefined, true)], []]) {
      const notCa = await rawCertificate(root, 'Not a CA', extensions);
      const leaf = await testLeaf(notCa);
      await refused(validateChain([leaf.der, notCa.certificate], [root.certificate], INSIDE), 'VERIFICATION_FAILED', /not a CA certificate/);
    }
    // A CA whose keyUsage does not include keyCertSign.
    const noCertSign = await rawCertificate(root, 'No certSign', [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)]);
    const leaf = await testLeaf(noCertSign);
    await refused(validateChain([leaf.der, noCertSign.certificate], [root.certificate], INSIDE), 'VERIFICATION_FAILED', /keyCertSign/);
  });

  test('pathLenConstraint is enforced', async () => {
    const root = await testRoot();
    const mid = await testIntermediate(root, 'Mid', 0);
    const lower = await testIntermediate(mid, 'Lower');
    const leaf = await testLeaf(lower);
    await refused(validateChain([leaf.der, lower.certificate, mid.certificate], [root.certificate], INSIDE), 'VERIFICATION_FAILED', /allows 0 intermediate/);
  });

  test('a leaf that may not sign, a CA as leaf and an unknown critical extension are refused', async () => {
    const root = await testRoot();
    const encipherOnly = await rawCertificate(root, 'Enc', [new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyEncipherment, true)]);
    await refused(validateChain([encipherOnly.certificate], [root.certificate], INSIDE), 'VERIFICATION_FAILED', /digitalSignature/);
    const mid = await testIntermediate(root);
    await refused(validateChain([mid.certificate], [root.certificate], INSIDE), 'VERIFICATION_FAILED', /leaf certificate is a CA/);
    const unknownCritical = await rawCertificate(root, 'Odd', [new x509.Extension('1.2.3.4.5', true, new Uint8Array([5, 0]))]);
    await refused(validateChain([unknownCritical.certificate], [root.certificate], INSIDE), 'VERIFICATION_FAILED', /critical extension/);
    // Not critical: ignored, as RFC 5280 says.
    const unknownPlain = await rawCertificate(root, 'Odd', [new x509.Extension('1.2.3.4.5', false, new Uint8Array([5, 0]))]);
    await expect(validateChain([unknownPlain.certificate], [root.certificate], INSIDE)).resolves.toBeDefined();
  });

  test('a link signed with SHA-1 or by a short RSA key is refused, whoever signed it', async () => {
    const root = await testRoot();
    const sha1Leaf = await rawCertificate(root, 'SHA-1 leaf', [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)], { hash: 'SHA-1' });
    await refused(validateChain([sha1Leaf.certificate], [root.certificate], INSIDE), 'VERIFICATION_FAILED', /weak or unsupported algorithm \(ECDSA with SHA-1\)/);
    // An RSA-1024 intermediate (under a good root) signing a leaf: the leaf's link rests on 1024 bits.
    const rsa = (await webcrypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const weakCa = await rawCertificate(root, 'RSA-1024 CA', [new x509.BasicConstraintsExtension(true, undefined, true)], { keys: rsa });
    const leafKeys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const leaf = await x509.X509CertificateGenerator.create(
      { serialNumber: '01', subject: [{ CN: ['leaf'] }], issuer: new x509.X509Certificate(weakCa.certificate).subjectName, notBefore: VALID_FROM, notAfter: VALID_UNTIL, signingAlgorithm: { name: 'RSASSA-PKCS1-v1_5' }, publicKey: leafKeys.publicKey, signingKey: rsa.privateKey },
      webcrypto,
    );
    await refused(validateChain([new Uint8Array(leaf.rawData), weakCa.certificate], [root.certificate], INSIDE), 'VERIFICATION_FAILED', /RSA key shorter than 2048 bits/);
  });

  test('a tampered certificate does not validate', async () => {
    const root = await testRoot();
    const leaf = await testLeaf(root, { dnsNames: ['issuer.example.org'] });
    // Change the SAN inside the signed part: same length, so the DER still parses.
    const der = Buffer.from(leaf.der);
    const at = der.indexOf(Buffer.from('issuer.example.org'));
    expect(at).toBeGreaterThan(0);
    der.write('evil', at);
    await refused(validateChain([new Uint8Array(der)], [root.certificate], INSIDE), 'VERIFICATION_FAILED', /trusted anchor/);
  });

  test('malformed input is INVALID_INPUT, never a parser exception', async () => {
    const root = await testRoot();
    await refused(validateChain([], [root.certificate], INSIDE), 'INVALID_INPUT');
    await refused(validateChain([new Uint8Array([0x30, 0x03, 1, 2, 3])], [root.certificate], INSIDE), 'INVALID_INPUT');
    await refused(validateChain(Array.from({ length: MAX_CHAIN_LENGTH + 1 }, () => root.certificate), [root.certificate], INSIDE), 'INVALID_INPUT');
    expect(() => x5cToDer('not base64!')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => x5cToDer('AAAA-_')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('certificates we issue, read by another implementation', () => {
  test("node's X.509 (OpenSSL) reads the chain as we mean it: issued-by links, CA flags, host, key", async () => {
    const root = await testRoot();
    const mid = await testIntermediate(root);
    const leaf = await testLeaf(mid, { dnsNames: ['issuer.example.org'], uris: ['https://issuer.example.org/t'] });
    const [r, m, l] = [root.certificate, mid.certificate, leaf.der].map((d) => new NodeX509(Buffer.from(d)));
    expect([r!.ca, m!.ca, l!.ca]).toEqual([true, true, false]);
    expect(l!.checkIssued(m!)).toBe(true);
    expect(m!.checkIssued(r!)).toBe(true);
    expect(l!.checkIssued(r!)).toBe(false);
    expect(l!.verify(m!.publicKey)).toBe(true);
    expect(m!.verify(r!.publicKey)).toBe(true);
    expect(l!.checkHost('issuer.example.org')).toBe('issuer.example.org');
    expect(l!.checkHost('other.example.org')).toBeUndefined();
    expect(l!.subjectAltName).toBe('DNS:issuer.example.org, URI:https://issuer.example.org/t');
    expect(l!.publicKey.export({ format: 'jwk' })).toEqual(await jwkOf(leaf.keys.publicKey));
  });
});

describe('PEM and x5c helpers', () => {
  test('PEM bundles round-trip in order, other blocks are skipped', async () => {
    const root = await testRoot();
    const leaf = await testLeaf(root);
    const bundle = `${toPem(leaf.der)}-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n${toPem(root.certificate)}`;
    const parsed = parsePemCertificates(bundle);
    expect(parsed.map((d) => Buffer.from(d).toString('hex'))).toEqual([leaf.der, root.certificate].map((d) => Buffer.from(d).toString('hex')));
    expect(x5cToDer(derToX5c(leaf.der))).toEqual(leaf.der);
    // x5c is standard base64 of DER, which node reads as a certificate directly.
    expect(createPublicKey({ key: toPem(leaf.der), format: 'pem' }).asymmetricKeyType).toBe('ec');
  });
});
