import { formats, FormatRegistry } from '../../../src/formats';
import { mdocNamespacesFromAttributes, verifyDeviceResponse } from '../../../src/formats/mdoc';
import { mdocFormat } from '../../../src/formats/mdoc/format';
import { anchorsTrust, deviceKey, testIssuer, type TestIssuer } from './support';

const PID = 'eu.europa.ec.eudi.pid.1';
const NOW = new Date('2026-06-01T12:00:00Z');
const REQUEST = { clientId: 'redirect_uri:https://verifier.example/cb', nonce: 'format-nonce', responseUri: 'https://verifier.example/cb' };

let issuer: TestIssuer;
let holder: ReturnType<typeof deviceKey>;
let registry: FormatRegistry;
// The service's other formats (mdoc itself left out, whether or not the service registers it yet).
const others = (): FormatRegistry => new FormatRegistry(formats.list().filter((f) => f.id !== 'mso_mdoc'));
beforeAll(async () => {
  issuer = await testIssuer();
  holder = deviceKey();
  registry = others().register(mdocFormat);
});

const issue = (): Promise<string> =>
  mdocFormat.issue({
    docType: PID,
    namespaces: mdocNamespacesFromAttributes(PID, {
      family_name: 'Mustermann',
      given_name: 'Erika',
      birth_date: '1964-08-12',
      birth_place: 'Berlin',
      nationality: 'DE',
      expiry_date: '2031-01-01',
      issuing_authority: 'Bundesdruckerei',
      issuing_country: 'DE',
    }),
    signer: issuer.signer,
    deviceKeyJwk: holder.publicJwk,
    validFrom: new Date('2026-01-15T00:00:00Z'),
    validUntil: new Date('2027-01-15T00:00:00Z'),
  });

describe('mdoc as a registry format', () => {
  it('registers beside the existing formats under mso_mdoc, and is the one that detects an IssuerSigned', async () => {
    expect(registry.forOid4vciFormat('mso_mdoc').map((f) => f.id)).toEqual(['mso_mdoc']);
    const credential = await issue();
    expect(registry.detect(credential)?.id).toBe('mso_mdoc');
    expect(registry.detect(new Uint8Array(Buffer.from(credential, 'base64url')))?.id).toBe('mso_mdoc');
    // No existing format claims it, and it claims nothing of theirs.
    expect(others().detect(credential)).toBeUndefined();
    for (const other of ['eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2ln', { '@context': [], proof: {} }, 'plain text', 'AAAAAAAAAAAAAAAAAAAA']) {
      expect(mdocFormat.detect(other)).toBe(false);
    }
  });

  it('reads what an IssuerSigned says before any check, and verifies it against the context\'s trust', async () => {
    const credential = await issue();
    expect(mdocFormat.read?.(credential)).toMatchObject({ docType: PID, claims: { [PID]: { given_name: 'Erika', birth_date: '1964-08-12' } } });
    const ok = await mdocFormat.verify(credential, { trust: anchorsTrust([issuer.rootDer]), now: NOW });
    expect(ok).toMatchObject({ verified: true, problems: [], issuerBound: true, suite: 'mso_mdoc', credential: { docType: PID } });
    const stranger = await testIssuer('Stranger');
    const untrusted = await mdocFormat.verify(credential, { trust: anchorsTrust([stranger.rootDer]), now: NOW });
    expect(untrusted.verified).toBe(false);
    expect(untrusted.problems.map((p) => p.type)).toEqual(['ISSUER_UNTRUSTED']);
    const expired = await mdocFormat.verify(credential, { trust: anchorsTrust([issuer.rootDer]), now: new Date('2028-01-01T00:00:00Z') });
    expect(expired.problems.map((p) => p.type)).toEqual(['EXPIRED']);
  });

  it('names the Token Status List entry an mdoc carries, so revocation can find it', async () => {
    const withStatus = await mdocFormat.issue({
      docType: PID,
      namespaces: { [PID]: { given_name: 'Erika' } },
      signer: issuer.signer,
      deviceKeyJwk: holder.publicJwk,
      validFrom: new Date('2026-01-15T00:00:00Z'),
      validUntil: new Date('2027-01-15T00:00:00Z'),
      status: { uri: 'https://issuer.example/status/3', idx: 12 },
    });
    expect(mdocFormat.status?.mechanism).toBe('TokenStatusList');
    const read = mdocFormat.read?.(withStatus) ?? {};
    expect(mdocFormat.status?.referencesOf(read)).toEqual([{ uri: 'https://issuer.example/status/3', index: 12, purpose: 'revocation' }]);
    const verified = await mdocFormat.verify(withStatus, { trust: anchorsTrust([issuer.rootDer]), now: NOW });
    expect(mdocFormat.status?.referencesOf(verified.credential ?? {})).toEqual([{ uri: 'https://issuer.example/status/3', index: 12, purpose: 'revocation' }]);
    expect(mdocFormat.status?.referencesOf(mdocFormat.read?.(await issue()) ?? {})).toEqual([]);
  });

  it('answers not-an-mdoc and no-trust-configured as problems, not exceptions', async () => {
    expect((await mdocFormat.verify('not-an-mdoc', { trust: anchorsTrust([issuer.rootDer]), now: NOW })).problems.map((p) => p.type)).toEqual(['PARSING_ERROR']);
    expect((await mdocFormat.verify(await issue(), { now: NOW })).problems.map((p) => p.type)).toEqual(['ISSUER_UNTRUSTED']);
  });

  it('presents a DeviceResponse (vp_token form) that the OID4VP verifier accepts', async () => {
    const vpToken = await mdocFormat.present?.({ issuerSigned: await issue(), holder, request: { [PID]: ['family_name'] }, ...REQUEST });
    expect(typeof vpToken).toBe('string');
    const result = await verifyDeviceResponse(vpToken as string, { ...REQUEST, trust: anchorsTrust([issuer.rootDer]), now: NOW });
    expect(result).toMatchObject({ verified: true, documents: [{ claims: { [PID]: { family_name: 'Mustermann' } } }] });
  });
});
