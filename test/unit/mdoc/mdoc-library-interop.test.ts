/**
 * Our mdoc against @owf/mdoc's own issuer, holder and verifier (a separate implementation of ISO
 * 18013-5 and the OID4VP handover): what we issue and present, it verifies; what it issues and
 * presents, we verify.
 */
import {
  CoseKey,
  DeviceKey,
  DeviceRequest,
  DeviceResponse,
  DocRequest,
  Holder,
  IssuerSigned,
  Issuer as LibraryIssuer,
  ItemsRequest,
  SessionTranscript,
  SignatureAlgorithm,
  Verifier,
  type VerificationAssessment,
} from '@owf/mdoc';
import { createDeviceResponse, issueMdoc, mdocNamespacesFromAttributes, verifyDeviceResponse } from '../../../src/formats/mdoc';
import { anchorsTrust, deviceKey, libraryContext, testIssuer, type TestIssuer } from './support';

const MDL = 'org.iso.18013.5.1.mDL';
const NS = 'org.iso.18013.5.1';
const NOW = new Date('2026-06-01T12:00:00Z');
const REQUEST = { clientId: 'x509_hash:Qk9HVVMtaGFzaC1mb3ItdGVzdHM', nonce: 'library-interop-nonce', responseUri: 'https://verifier.example/oid4vp/response' };
const ATTRIBUTES = {
  family_name: 'Doe',
  given_name: 'Jane',
  birth_date: '1990-03-04',
  issue_date: '2026-01-10',
  expiry_date: '2036-01-10',
  issuing_country: 'DE',
  issuing_authority: 'KBA',
  document_number: 'D1234567',
  portrait: 'AAEC',
  driving_privileges: [{ vehicle_category_code: 'B' }],
  un_distinguishing_sign: 'D',
};

let issuer: TestIssuer;
let holder: ReturnType<typeof deviceKey>;
beforeAll(async () => {
  issuer = await testIssuer();
  holder = deviceKey();
});

const transcript = (): Promise<SessionTranscript> => SessionTranscript.forOid4Vp(REQUEST, libraryContext());

function collect(): { onCheck: (a: VerificationAssessment) => void; failed: VerificationAssessment[] } {
  const failed: VerificationAssessment[] = [];
  return { failed, onCheck: (a) => void (a.status === 'FAILED' && failed.push(a)) };
}

describe('@owf/mdoc verifies what we issue and present', () => {
  it('accepts our DeviceResponse: issuer chain, MSO signature, digests, validity and device signature (with a status list entry in the MSO)', async () => {
    const issuerSigned = await issueMdoc({ docType: MDL, namespaces: mdocNamespacesFromAttributes(MDL, ATTRIBUTES), signer: issuer.signer, deviceKeyJwk: holder.publicJwk, validFrom: new Date('2026-01-15T00:00:00Z'), validUntil: new Date('2027-01-15T00:00:00Z'), status: { uri: 'https://issuer.example/status/1', idx: 7 } });
    // Its holder side reads our IssuerSigned too.
    await Holder.verifyIssuerSigned({ issuerSigned, trustedCertificates: [issuer.rootDer], now: NOW }, libraryContext());
    const response = await createDeviceResponse({ issuerSigned, holder, request: { [NS]: ['given_name', 'birth_date', 'issuing_country'] }, ...REQUEST });
    const { onCheck, failed } = collect();
    await Verifier.verifyDeviceResponse({ deviceResponse: response, sessionTranscript: await transcript(), trustedCertificates: [issuer.rootDer], now: NOW, onCheck }, libraryContext());
    expect(failed).toEqual([]);
    const doc = DeviceResponse.decode(response).documents?.[0];
    expect(doc?.issuerSigned.getPrettyClaims(NS)).toMatchObject({ given_name: 'Jane', issuing_country: 'DE' });
    expect(String((doc?.issuerSigned.getPrettyClaims(NS) as Record<string, unknown>).birth_date)).toBe('1990-03-04');
  });

  it('and, as a check that its path can fail, refuses our DeviceResponse under another nonce', async () => {
    const issuerSigned = await issueMdoc({ docType: MDL, namespaces: mdocNamespacesFromAttributes(MDL, ATTRIBUTES), signer: issuer.signer, deviceKeyJwk: holder.publicJwk, validFrom: new Date('2026-01-15T00:00:00Z'), validUntil: new Date('2027-01-15T00:00:00Z') });
    const response = await createDeviceResponse({ issuerSigned, holder, request: { [NS]: ['given_name'] }, ...REQUEST, nonce: 'another-nonce' });
    const { onCheck, failed } = collect();
    await Verifier.verifyDeviceResponse({ deviceResponse: response, sessionTranscript: await transcript(), trustedCertificates: [issuer.rootDer], now: NOW, onCheck }, libraryContext());
    expect(failed.map((f) => f.category)).toEqual(['DEVICE_AUTH']);
  });
});

describe('we verify what @owf/mdoc issues and presents', () => {
  async function libraryResponse(): Promise<Uint8Array> {
    const ctx = libraryContext();
    const issuerSigned = await new LibraryIssuer(MDL, ctx)
      .addIssuerNamespace(NS, { family_name: 'Roe', given_name: 'Richard', age_over_18: true })
      .sign({
        signingKey: CoseKey.fromJwk(issuer.privateJwk as Record<string, unknown>),
        algorithm: SignatureAlgorithm.ES256,
        digestAlgorithm: 'SHA-256',
        validityInfo: { signed: new Date('2026-01-15T00:00:00Z'), validFrom: new Date('2026-01-15T00:00:00Z'), validUntil: new Date('2027-01-15T00:00:00Z') },
        deviceKeyInfo: { deviceKey: DeviceKey.fromJwk(holder.publicJwk as Record<string, unknown>) },
        certificates: [issuer.leafDer],
      });
    const deviceRequest = DeviceRequest.create({ docRequests: [DocRequest.create({ itemsRequest: ItemsRequest.create({ docType: MDL, namespaces: { [NS]: { given_name: false, age_over_18: false } } }) })] });
    const response = await Holder.createDeviceResponseForDeviceRequest(
      { deviceRequest, sessionTranscript: await transcript(), issuerSigned: [IssuerSigned.decode(issuerSigned.encode())], signature: { signingKey: CoseKey.fromJwk({ ...holder.privateJwk, alg: 'ES256' } as Record<string, unknown>) } },
      ctx,
    );
    return response.encode();
  }

  it('verifies its DeviceResponse and reports just the disclosed elements', async () => {
    const result = await verifyDeviceResponse(await libraryResponse(), { ...REQUEST, trust: anchorsTrust([issuer.rootDer]), now: NOW, expectedDocType: MDL });
    expect(result.problems).toEqual([]);
    expect(result.verified).toBe(true);
    expect(result.documents[0]?.claims).toEqual({ [NS]: { given_name: 'Richard', age_over_18: true } });
  });

  it('refuses it for another response_uri (the device signed over the library\'s transcript)', async () => {
    const result = await verifyDeviceResponse(await libraryResponse(), { ...REQUEST, responseUri: 'https://attacker.example/response', trust: anchorsTrust([issuer.rootDer]), now: NOW });
    expect(result.verified).toBe(false);
    expect(result.problems.map((p) => p.code)).toEqual(['DEVICE_SIGNATURE_INVALID']);
  });
});
