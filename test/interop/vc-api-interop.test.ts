import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { useTestServer } from '../support/harness';
import { type VcApiTransport, graphqlVcApi, namingIssuer, restVcApi } from '../support/vc-api-transports';
import { dbSign, dbVerifyWithStatus } from '../support/vc/digitalbazaar';
import { startVeramo, type VeramoProcess } from '../support/vc/veramo-process';

/*
 * Issue 11 acceptance, through the VC-API of a running service:
 * - credentials issued by POST /vc-api/credentials/issue (the default instance) and by instances of
 *   every Data Integrity suite and Ed25519Signature2020, VCDM 1.1 and 2.0, verify with Digital
 *   Bazaar's @digitalbazaar/vc, which also checks the BitstringStatusListEntry with
 *   @digitalbazaar/vc-bitstring-status-list, fetching the list credential over HTTP from this
 *   service (publicUrl is the real loopback address), verifying it and matching its issuer;
 *   a revocation through /vc-api/credentials/status shows in what DB reads;
 * - credentials Digital Bazaar issues verify through /vc-api/credentials/verify and GraphQL
 *   vcVerifyCredential, and tampered ones do not;
 * - a Veramo VC-JWT verifies through /vc-api/credentials/verify (and GraphQL).
 */

type Json = Record<string, any>;

/** A loopback port chosen before the server starts, so credentials name a URL that really serves. */
let publicPort = 0;
let publicListener: HttpServer | undefined;
beforeAll(async () => {
  const probe: Server = createServer();
  publicPort = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)));
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
const publicUrl = () => `http://127.0.0.1:${publicPort}`;
const server = useTestServer(() => ({ env: { publicUrl: publicUrl() } }));
beforeAll(async () => {
  const listener = server.app.http.listen(publicPort, '127.0.0.1');
  await new Promise<void>((resolve, reject) => listener.once('listening', resolve).once('error', reject));
  publicListener = listener;
});
afterAll(async () => {
  publicListener?.closeAllConnections();
  await new Promise<void>((resolve) => (publicListener ? publicListener.close(() => resolve()) : resolve()));
});

const V1 = 'https://www.w3.org/2018/credentials/v1';
const V2 = 'https://www.w3.org/ns/credentials/v2';
const UNDEFINED_TERMS = 'https://www.w3.org/ns/credentials/undefined-terms/v2';

const unsigned = (version: '1.1' | '2.0'): Json =>
  version === '1.1'
    ? // credentials/v1 defines no claim terms and has no @vocab (and the pinned 1.1 examples context imports ODRL, which is not pinned): the subject id is the claim.
      { '@context': [V1], id: `urn:uuid:${randomUUID()}`, type: ['VerifiableCredential'], credentialSubject: { id: 'did:example:holder' } }
    : { '@context': [V2, UNDEFINED_TERMS], id: `urn:uuid:${randomUUID()}`, type: ['VerifiableCredential', 'AlumniCredential'], credentialSubject: { id: 'did:example:holder', name: 'Ada Lovelace', alumniOf: 'Example University' } };

function ok<T>(o: { ok: true; data: T } | { ok: false; status: number; code?: string }): T {
  if (!o.ok) throw new Error(`expected success, got ${o.status} ${o.code}`);
  return o.data;
}

const SUITES = [
  { cryptosuite: 'eddsa-rdfc-2022', keyType: 'Ed25519' },
  { cryptosuite: 'eddsa-jcs-2022', keyType: 'Ed25519' },
  { cryptosuite: 'ecdsa-rdfc-2019', keyType: 'P-256' },
  { cryptosuite: 'ecdsa-rdfc-2019', keyType: 'P-384' },
  { cryptosuite: 'Ed25519Signature2020', keyType: 'Ed25519' },
] as const;
const VERSIONS = ['1.1', '2.0'] as const;
const REVOCABLE = { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } };

describe('Credgate issues through the VC-API, Digital Bazaar verifies (status list fetched over HTTP)', () => {
  let issuerKey: string;
  let t: VcApiTransport;
  const instances = new Map<string, string>();
  beforeAll(async () => {
    issuerKey = await server.apiKey(`interop-${randomUUID().slice(0, 8)}`, ['issuer']);
    // The credential names its issuer (the instance's DID); status entries are asked for.
    t = namingIssuer(restVcApi(server));
  });

  async function instanceFor(cryptosuite: string, keyType: string): Promise<string> {
    const k = `${cryptosuite}/${keyType}`;
    if (!instances.has(k)) instances.set(k, ok(await t.createIssuer(issuerKey, { cryptosuite, keyType })).id);
    return instances.get(k)!;
  }

  test.each(VERSIONS)('the default instance (POST /vc-api/credentials/issue), VCDM %s', async (version) => {
    const { verifiableCredential: vc } = ok(await t.issue(issuerKey, { credential: unsigned(version), options: REVOCABLE }));
    expect(vc['proof']).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' });
    const result = await dbVerifyWithStatus(vc, [publicUrl()]);
    expect(result).toEqual({ verified: true, errors: [], status: [{ purpose: 'revocation', status: false }] });
  });

  test.each(SUITES.flatMap((s) => VERSIONS.map((version) => ({ ...s, version }))))(
    'an instance with $cryptosuite ($keyType), VCDM $version: verifies with its status, a revocation is read, a changed claim fails',
    async ({ cryptosuite, keyType, version }) => {
      const id = await instanceFor(cryptosuite, keyType);
      const credential = unsigned(version);
      const { verifiableCredential: vc } = ok(await t.issue(issuerKey, { credential, options: REVOCABLE }, id));
      expect(JSON.stringify(vc['proof'])).toContain(cryptosuite);
      const statusUrl = vc['credentialStatus'].statusListCredential as string;
      expect(statusUrl.startsWith(`${publicUrl()}/vc-api/status-lists/`)).toBe(true);

      expect(await dbVerifyWithStatus(vc, [publicUrl()])).toEqual({ verified: true, errors: [], status: [{ purpose: 'revocation', status: false }] });

      ok(await t.updateStatus(issuerKey, { credentialId: credential['id'], statusPurpose: 'revocation', status: true }));
      // DB reports the bit; the signature and the list credential still verify.
      expect(await dbVerifyWithStatus(vc, [publicUrl()])).toEqual({ verified: true, errors: [], status: [{ purpose: 'revocation', status: true }] });

      const tampered = await dbVerifyWithStatus({ ...vc, credentialSubject: { ...vc['credentialSubject'], id: 'did:example:attacker' } }, [publicUrl()]);
      expect(tampered.verified).toBe(false);
    },
  );
});

describe.each([['REST'], ['GraphQL']])('Digital Bazaar issues, Credgate verifies through %s', (name) => {
  let verifierKey: string;
  let t: VcApiTransport;
  beforeAll(async () => {
    verifierKey = await server.apiKey(`interop-v-${randomUUID().slice(0, 8)}`, ['verifier']);
    t = name === 'REST' ? restVcApi(server) : graphqlVcApi(server);
  });

  test.each(SUITES.flatMap((s) => VERSIONS.map((version) => ({ ...s, version }))))(
    '$cryptosuite ($keyType), VCDM $version verifies; a changed claim and a changed proof value do not',
    async ({ cryptosuite, keyType, version }) => {
      const credential = version === '1.1' ? { ...unsigned('1.1'), issuanceDate: '2024-05-01T10:00:00Z' } : { ...unsigned('2.0'), validFrom: '2024-05-01T10:00:00Z' };
      const { did, verifiableCredential: vc } = await dbSign({ suite: cryptosuite, keyType, credential });
      const result = ok(await t.verify(verifierKey, { verifiableCredential: vc }));
      expect(result).toEqual({ verified: true, checks: expect.arrayContaining(['proof']), warnings: [], errors: [] });
      expect(vc['issuer']).toBe(did);

      const changed = ok(await t.verify(verifierKey, { verifiableCredential: { ...vc, credentialSubject: { ...(vc['credentialSubject'] as Json), id: 'did:example:attacker' } } }));
      expect(changed.verified).toBe(false);
      const proof = vc['proof'] as Json;
      const value = String(proof['proofValue'] ?? '');
      // The second-to-last character replaced by a different one (the last may hold padding bits).
      const flipped = `${value.slice(0, -2)}${value.at(-2) === 'A' ? 'B' : 'A'}${value.slice(-1)}`;
      expect(flipped).not.toBe(value);
      const badProof = ok(await t.verify(verifierKey, { verifiableCredential: { ...vc, proof: { ...proof, proofValue: flipped } } }));
      expect(badProof.verified).toBe(false);
    },
  );
});

describe('Veramo issues a VC-JWT, Credgate verifies through the VC-API', () => {
  let veramo: VeramoProcess;
  let verifierKey: string;
  beforeAll(async () => {
    veramo = await startVeramo();
    verifierKey = await server.apiKey(`interop-jwt-${randomUUID().slice(0, 8)}`, ['verifier']);
  });
  afterAll(async () => {
    await veramo?.close();
  });

  test.each([['REST'], ['GraphQL']])('through %s: the Veramo VC-JWT verifies; a changed payload, or the token in a vc+jwt envelope, does not', async (name) => {
    const t = name === 'REST' ? restVcApi(server) : graphqlVcApi(server);
    const { did } = await veramo.request<{ did: string }>('createIdentifier', { keyType: 'Ed25519' });
    const credential = {
      '@context': [V1],
      type: ['VerifiableCredential'],
      issuer: { id: did },
      id: `urn:uuid:${randomUUID()}`,
      issuanceDate: '2024-05-01T12:00:00Z',
      // did-jwt-vc moves the subject id to `sub`; a claim keeps credentialSubject non-empty.
      credentialSubject: { id: 'did:example:holder', name: 'Grace Hopper' },
    };
    const { jwt } = await veramo.request<{ jwt: string }>('issueCredential', { credential });
    const result = ok(await t.verify(verifierKey, { verifiableCredential: jwt }));
    expect(result).toEqual({ verified: true, checks: expect.arrayContaining(['proof']), warnings: [], errors: [] });

    // Veramo signs VC-JWT 1.1 (typ JWT): not the content of an application/vc+jwt envelope (VC-JOSE-COSE), so wrapped as one it is refused.
    const enveloped = { '@context': [V2], id: `data:application/vc+jwt,${jwt}`, type: 'EnvelopedVerifiableCredential' };
    const viaEnvelope = ok(await t.verify(verifierKey, { verifiableCredential: enveloped }));
    expect(viaEnvelope.verified).toBe(false);
    expect(viaEnvelope.errors.map((e) => e.type)).toEqual(['https://www.w3.org/TR/vc-data-model#MALFORMED_VALUE_ERROR']);

    const [h, p, s] = jwt.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Json;
    payload['vc'].credentialSubject.id = 'did:example:attacker';
    const forged = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expect(ok(await t.verify(verifierKey, { verifiableCredential: forged })).verified).toBe(false);
  });
});
