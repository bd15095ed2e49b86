/**
 * A DeviceResponse nobody here wrote: the Paradym Wallet's answer to an OpenID4VP 1.0 request
 * (encrypted response, x509_san_dns client) for a PID issued by the Animo Playground, as kept in
 * @owf/mdoc's repository (test/fixtures/mdoc/SOURCES.md). Its CBOR uses encodings our own issuer
 * never produces (two-byte map lengths, a kid header), so it also shows that digests and signatures
 * are checked over the bytes received.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { verifyDeviceResponse, type VerifyDeviceResponseOptions } from '../../../src/formats/mdoc';
import { anchorsTrust } from './support';

interface Fixture {
  now: string;
  docType: string;
  clientId: string;
  nonce: string;
  responseUri: string;
  jwkThumbprintHex: string;
  issuerCertificateBase64: string;
  rootCertificateBase64: string;
  deviceResponseBase64url: string;
}

const fixture = JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/mdoc/paradym-pid-device-response.json'), 'utf8')) as Fixture;
const der = (b64: string): Uint8Array => new Uint8Array(Buffer.from(b64, 'base64'));
const request = { clientId: fixture.clientId, nonce: fixture.nonce, responseUri: fixture.responseUri, jwkThumbprint: new Uint8Array(Buffer.from(fixture.jwkThumbprintHex, 'hex')) };
const options: VerifyDeviceResponseOptions = { ...request, trust: anchorsTrust([der(fixture.rootCertificateBase64)]), now: new Date(fixture.now), expectedDocType: fixture.docType };

describe('a DeviceResponse from an independent wallet (Paradym, OpenID4VP 1.0)', () => {
  it('verifies: Animo\'s chain, the MSO signature, the digests, validity and the device signature over Annex B\'s transcript', async () => {
    const result = await verifyDeviceResponse(fixture.deviceResponseBase64url, options);
    expect(result.problems).toEqual([]);
    expect(result.verified).toBe(true);
    expect(result.documents).toHaveLength(1);
    expect(result.documents[0]).toMatchObject({
      docType: 'eu.europa.ec.eudi.pid.1',
      trustedBy: 'x5c',
      claims: { 'eu.europa.ec.eudi.pid.1': { given_name: 'Erika', family_name: 'Mustermann' } },
      validity: { signed: '2026-01-08T00:00:00Z', validFrom: '2026-01-08T00:00:00Z', validUntil: '2027-01-08T11:35:34Z' },
    });
  });

  it('is refused for a request it did not answer (no encryption key, another nonce), after expiry, and under other anchors', async () => {
    const codes = async (overrides: Partial<VerifyDeviceResponseOptions>): Promise<string[]> => (await verifyDeviceResponse(fixture.deviceResponseBase64url, { ...options, ...overrides })).problems.map((p) => p.code);
    expect(await codes({ jwkThumbprint: null })).toEqual(['DEVICE_SIGNATURE_INVALID']);
    expect(await codes({ nonce: 'LMGPB6k--THpBUSkEBvLxmdMIi3Ee1fjHXXUUzBVa05' })).toEqual(['DEVICE_SIGNATURE_INVALID']);
    expect(await codes({ now: new Date('2027-01-09T00:00:00Z') })).toEqual(expect.arrayContaining(['EXPIRED']));
    // Its own document signer certificate is not a trust anchor: the chain must end at Animo's root.
    expect(await codes({ trust: anchorsTrust([der(fixture.issuerCertificateBase64)]) })).toEqual(['ISSUER_UNTRUSTED']);
  });
});
