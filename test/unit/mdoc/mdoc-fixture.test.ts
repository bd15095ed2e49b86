/**
 * A committed DeviceResponse (test/fixtures/mdoc/pid-device-response.json, see its SOURCES.md): fixed
 * bytes that @owf/mdoc's own decoder and verifier accept, so a change in how we encode or check can
 * not drift unnoticed as long as both sides change together.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DeviceResponse, SessionTranscript, Verifier, type VerificationAssessment } from '@owf/mdoc';
import { verifyDeviceResponse } from '../../../src/formats/mdoc';
import { anchorsTrust, libraryContext } from './support';

interface Fixture {
  now: string;
  docType: string;
  clientId: string;
  nonce: string;
  responseUri: string;
  jwkThumbprintHex: string;
  rootCertificateBase64: string;
  disclosed: Record<string, Record<string, unknown>>;
  deviceResponseHex: string;
}

const fixture = JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/mdoc/pid-device-response.json'), 'utf8')) as Fixture;
const bytes = (): Uint8Array => new Uint8Array(Buffer.from(fixture.deviceResponseHex, 'hex'));
const root = new Uint8Array(Buffer.from(fixture.rootCertificateBase64, 'base64'));
const now = new Date(fixture.now);
const request = { clientId: fixture.clientId, nonce: fixture.nonce, responseUri: fixture.responseUri, jwkThumbprint: new Uint8Array(Buffer.from(fixture.jwkThumbprintHex, 'hex')) };

async function libraryFailures(response: Uint8Array, nonce = fixture.nonce): Promise<VerificationAssessment[]> {
  const failed: VerificationAssessment[] = [];
  const sessionTranscript = await SessionTranscript.forOid4Vp({ ...request, nonce }, libraryContext());
  await Verifier.verifyDeviceResponse(
    { deviceResponse: response, sessionTranscript, trustedCertificates: [root], now, onCheck: (a) => void (a.status === 'FAILED' && failed.push(a)) },
    libraryContext(),
  );
  return failed;
}

describe('the committed mdoc DeviceResponse fixture', () => {
  it('is decoded and verified by @owf/mdoc\'s own verifier', async () => {
    expect(await libraryFailures(bytes())).toEqual([]);
    const document = DeviceResponse.decode(bytes()).documents?.[0];
    expect(document?.docType).toBe(fixture.docType);
    const claims = document?.issuerSigned.getPrettyClaims(fixture.docType) as Record<string, unknown>;
    expect(Object.fromEntries(Object.entries(claims).map(([k, v]) => [k, typeof v === 'object' ? String(v) : v]))).toEqual(fixture.disclosed[fixture.docType]);
  });

  it('is verified by ours with the same claims', async () => {
    const result = await verifyDeviceResponse(bytes(), { ...request, trust: anchorsTrust([root]), now, expectedDocType: fixture.docType });
    expect(result.problems).toEqual([]);
    expect(result.documents.map((d) => d.claims)).toEqual([fixture.disclosed]);
  });

  it('fails on both sides for another nonce, and for one flipped bit of the device signature', async () => {
    expect((await libraryFailures(bytes(), 'another-nonce')).map((f) => f.category)).toEqual(['DEVICE_AUTH']);
    const ours = await verifyDeviceResponse(bytes(), { ...request, nonce: 'another-nonce', trust: anchorsTrust([root]), now });
    expect(ours.problems.map((p) => p.code)).toEqual(['DEVICE_SIGNATURE_INVALID']);

    // Flip one bit inside the device signature, located by decoding the response.
    const flipped = bytes();
    const signature = (DeviceResponse.decode(flipped).documents?.[0]?.deviceSigned.deviceAuth.deviceSignature?.signature ?? new Uint8Array()) as Uint8Array;
    const at = Buffer.from(flipped).indexOf(Buffer.from(signature));
    expect(at).toBeGreaterThan(0);
    flipped[at + 10] = (flipped[at + 10] as number) ^ 0x01;
    expect((await libraryFailures(flipped)).map((f) => f.category)).toEqual(['DEVICE_AUTH']);
    const oursFlipped = await verifyDeviceResponse(flipped, { ...request, trust: anchorsTrust([root]), now });
    expect(oursFlipped.problems.map((p) => p.code)).toEqual(['DEVICE_SIGNATURE_INVALID']);
  });
});
