import { webcrypto } from 'node:crypto';
import type { DidDocument } from '../../../src/domain/dids/did-document.types';
import { AppError } from '../../../src/errors';
import type { DereferencedMethod, DidResolver } from '../../../src/vc/ports';
import { createDidResolver } from '../../../src/vc/resolver';
import { didKeyIdentity, generateSigningKeyPair } from '../../../src/vc/signers/key-signer';
import { nistPublicKeyToJwk } from '../../../src/domain/keys/nist';
import { derToX5c, didTrust, eitherTrust, x5cTrust } from '../../../src/x509';
import { rejection } from '../../support/app-error';
import { INSIDE, testIntermediate, testLeaf, testRoot } from '../../support/x509-test-ca';

async function refused(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  const e = await rejection(p);
  expect(e.code).toBe(code);
  if (message) expect(e.message).toMatch(message);
}

const publicJwkOf = async (key: webcrypto.CryptoKey) => {
  const { kty, crv, x, y } = await webcrypto.subtle.exportKey('jwk', key);
  return { kty, crv, x, y };
};

describe('x5cTrust', () => {
  test('gives the leaf key of a chain to an anchor, at the time asked for', async () => {
    const root = await testRoot();
    const mid = await testIntermediate(root);
    const leaf = await testLeaf(mid, { dnsNames: ['issuer.example.org'] });
    const trust = x5cTrust([root.certificate], { now: () => INSIDE });
    const x5c = [leaf.der, mid.certificate].map(derToX5c);
    const trusted = await trust({ x5c, iss: 'https://issuer.example.org/tenants/acme' });
    expect(trusted).toMatchObject({ trustedBy: 'x5c', publicJwk: await publicJwkOf(leaf.keys.publicKey) });
    expect(trusted.certificate?.san.dnsNames).toEqual(['issuer.example.org']);
    // The input's time wins over the trust's clock.
    await refused(trust({ x5c, now: new Date('2040-01-01T00:00:00Z') }), 'VERIFICATION_FAILED', /expired/);
  });

  test('the leaf must name the issuer: another host, or no x5c at all, is not trusted', async () => {
    const root = await testRoot();
    const leaf = await testLeaf(root, { dnsNames: ['issuer.example.org'], uris: ['urn:example:issuer'] });
    const trust = x5cTrust(async () => [root.certificate], { now: () => INSIDE });
    const x5c = [derToX5c(leaf.der)];
    await expect(trust({ x5c, iss: 'urn:example:issuer' })).resolves.toMatchObject({ trustedBy: 'x5c' });
    await expect(trust({ x5c, iss: 'https://ISSUER.example.org' })).resolves.toMatchObject({ trustedBy: 'x5c' });
    await refused(trust({ x5c, iss: 'https://attacker.example.net' }), 'VERIFICATION_FAILED', /does not name the issuer/);
    await refused(trust({ x5c, iss: 'https://issuer.example.org.attacker.example.net' }), 'VERIFICATION_FAILED', /does not name the issuer/);
    await refused(trust({ iss: 'https://issuer.example.org' }), 'VERIFICATION_FAILED', /no x5c/);
    await refused(trust({ x5c: ['%%%'] }), 'INVALID_INPUT');
    // A certificate of another CA, even for the right name.
    const stranger = await testLeaf(await testRoot('Stranger'), { dnsNames: ['issuer.example.org'] });
    await refused(trust({ x5c: [derToX5c(stranger.der)], iss: 'https://issuer.example.org' }), 'VERIFICATION_FAILED', /trusted anchor/);
  });
});

describe('didTrust', () => {
  const pair = generateSigningKeyPair('P-256');
  const { did, verificationMethod } = didKeyIdentity('P-256', pair.publicKey);
  const resolver = createDidResolver();

  test('a did:key issuer: the kid names a method under assertionMethod, its key is returned', async () => {
    const trusted = await didTrust(resolver)({ iss: did, kid: verificationMethod });
    expect(trusted).toEqual({ trustedBy: 'did', verificationMethod, publicJwk: nistPublicKeyToJwk('P-256', pair.publicKey) });
    // A relative kid is read against the iss DID.
    await expect(didTrust(resolver)({ iss: did, kid: `#${verificationMethod.split('#')[1]}` })).resolves.toMatchObject({ trustedBy: 'did' });
  });

  test('a kid of another DID, a kid that is no DID URL, or none, is not trusted', async () => {
    const other = didKeyIdentity('P-256', generateSigningKeyPair('P-256').publicKey);
    await refused(didTrust(resolver)({ iss: did, kid: other.verificationMethod }), 'VERIFICATION_FAILED', /not a key of the issuer/);
    await refused(didTrust(resolver)({ iss: did, kid: 'key-1' }), 'VERIFICATION_FAILED', /not a DID URL/);
    await refused(didTrust(resolver)({ iss: did }), 'VERIFICATION_FAILED', /kid/);
    await refused(didTrust(resolver)({ iss: 'did:key:zNotAKey', kid: 'did:key:zNotAKey#zNotAKey' }), 'VERIFICATION_FAILED', /could not be resolved/);
  });

  test('a method the DID lists only for authentication is not an issuer key', async () => {
    const base = await resolver.dereferenceMethod(verificationMethod);
    const doc: DidDocument = { ...base.controllerDocument, assertionMethod: [], authentication: [verificationMethod] };
    const onlyAuth: DidResolver = {
      resolve: async () => ({ didDocument: doc, method: 'test' }),
      dereferenceMethod: async (): Promise<DereferencedMethod> => ({ method: base.method, controllerDocument: doc }),
    };
    await refused(didTrust(onlyAuth)({ iss: did, kid: verificationMethod }), 'VERIFICATION_FAILED', /assertionMethod/);
  });

  test('an unreachable resolver is passed on (retry later), not turned into a verdict', async () => {
    const down: DidResolver = {
      resolve: async () => {
        throw new AppError('SERVICE_UNAVAILABLE', 'down');
      },
      dereferenceMethod: async () => {
        throw new AppError('SERVICE_UNAVAILABLE', 'down');
      },
    };
    await refused(didTrust(down)({ iss: did, kid: verificationMethod }), 'SERVICE_UNAVAILABLE');
  });

  test('eitherTrust picks x5c when a chain is sent, the DID otherwise', async () => {
    const root = await testRoot();
    const leaf = await testLeaf(root);
    const trust = eitherTrust(x5cTrust([root.certificate], { now: () => INSIDE }), didTrust(resolver));
    await expect(trust({ x5c: [derToX5c(leaf.der)] })).resolves.toMatchObject({ trustedBy: 'x5c' });
    await expect(trust({ iss: did, kid: verificationMethod })).resolves.toMatchObject({ trustedBy: 'did' });
  });
});
