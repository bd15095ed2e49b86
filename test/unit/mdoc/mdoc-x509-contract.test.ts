/**
 * The shared contracts of issue 21 as the service builds them: certificates from src/x509 (a root,
 * an intermediate, a document signer), a Signer of the shared shape over WebCrypto, and x5cTrust
 * for verification. mdoc issues with that signer and verifies through that trust unchanged.
 */
import { webcrypto } from 'node:crypto';
import { createDeviceResponse, issueMdoc, mdocNamespacesFromAttributes, verifyDeviceResponse } from '../../../src/formats/mdoc';
import { createRootCa, derToX5c, generateP256KeyPair, issueIntermediateCertificate, issueLeafCertificate, publicJwkOf, parseCertificate, x5cTrust, type Signer } from '../../../src/x509';
import { deviceKey } from './support';

const PID = 'eu.europa.ec.eudi.pid.1';
const NOW = new Date('2026-06-01T12:00:00Z');
const VALIDITY = { notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: new Date('2030-01-01T00:00:00Z') };
const REQUEST = { clientId: 'x509_san_dns:verifier.example', nonce: 'contract-nonce', responseUri: 'https://verifier.example/response' };

/** The shared Signer over a non-exported WebCrypto key: WebCrypto's ECDSA already yields raw r||s. */
function webCryptoSigner(privateKey: webcrypto.CryptoKey, chain: Uint8Array[]): Signer {
  return {
    alg: 'ES256',
    publicJwk: publicJwkOf(parseCertificate(chain[0] as Uint8Array)),
    x5c: chain.map(derToX5c),
    sign: async (data) => new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, data)),
  };
}

describe('mdoc with the service\'s X.509 signer and trust', () => {
  it('issues through a root -> intermediate -> document signer chain and verifies through x5cTrust', async () => {
    const root = await createRootCa({ subject: { commonName: 'Credgate Test IACA', country: 'DE' }, ...VALIDITY });
    const intermediateKeys = await generateP256KeyPair();
    const intermediate = { certificate: await issueIntermediateCertificate({ issuer: root, subject: { commonName: 'Credgate Test Intermediate', country: 'DE' }, publicKey: intermediateKeys.publicKey, pathLength: 0, ...VALIDITY }), privateKey: intermediateKeys.privateKey };
    const dsKeys = await generateP256KeyPair();
    const leaf = await issueLeafCertificate({ issuer: intermediate, subject: { commonName: 'Credgate Test DS', country: 'DE' }, publicKey: dsKeys.publicKey, dnsNames: ['issuer.example'], ...VALIDITY });
    const signer = webCryptoSigner(dsKeys.privateKey, [leaf, intermediate.certificate]);
    const holder = deviceKey();

    const issuerSigned = await issueMdoc({
      docType: PID,
      namespaces: mdocNamespacesFromAttributes(PID, { family_name: 'Mustermann', given_name: 'Erika', birth_date: '1964-08-12', birth_place: 'Berlin', nationality: 'DE', expiry_date: '2031-01-01', issuing_authority: 'DE', issuing_country: 'DE' }),
      signer,
      deviceKeyJwk: holder.publicJwk,
      validFrom: new Date('2026-01-15T00:00:00Z'),
      validUntil: new Date('2027-01-15T00:00:00Z'),
    });
    const response = await createDeviceResponse({ issuerSigned, holder, request: { [PID]: ['given_name'] }, ...REQUEST });

    const trusted = await verifyDeviceResponse(response, { ...REQUEST, trust: x5cTrust([root.certificate]), now: NOW });
    expect(trusted.problems).toEqual([]);
    expect(trusted.documents[0]?.claims).toEqual({ [PID]: { given_name: 'Erika' } });

    const otherRoot = await createRootCa({ subject: { commonName: 'Someone Else', country: 'DE' }, ...VALIDITY });
    const untrusted = await verifyDeviceResponse(response, { ...REQUEST, trust: x5cTrust([otherRoot.certificate]), now: NOW });
    expect(untrusted.problems.map((p) => p.code)).toEqual(['ISSUER_UNTRUSTED']);
    // x5cTrust judges the certificates at the verification time it is handed, not at its own clock.
    const later = await verifyDeviceResponse(response, { ...REQUEST, trust: x5cTrust([root.certificate]), now: new Date('2031-01-01T00:00:00Z') });
    expect(later.problems.map((p) => p.code)).toEqual(['ISSUER_UNTRUSTED', 'EXPIRED']);
  });
});
