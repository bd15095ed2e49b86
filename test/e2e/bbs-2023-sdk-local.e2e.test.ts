import { randomUUID } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { localSdk, ok } from '../support/bbs-2023-local-sdk';
import { type BbsTransport, graphqlBbs, restBbs } from '../support/bbs-2023-transports';

/**
 * A non-custodial holder derives with the SDK package's local helper (packages/sdk/dist, in its own
 * Node process: no service, no database, nothing but the credential), and the service verifies
 * the derivation; the reverse too: the service derives and the SDK verifies locally. Through REST
 * and through GraphQL via the SDK, with the same assertions.
 */
const server = useTestServer();
type Json = Record<string, any>;


const credential = (issuer: string): Json => ({
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
  type: ['VerifiableCredential', 'AgeCredential'],
  issuer,
  credentialSubject: { givenName: 'Perpetua', birthDate: '1990-02-02', over18: true },
});

describe.each([['REST'], ['GraphQL']])('bbs-2023 derived by the local SDK and by the service, via %s', (name) => {
  let t: BbsTransport;
  let keys: { issuer: string; holder: string; verifier: string };
  let issued: Json;
  let issuerDid: string;

  beforeAll(async () => {
    t = name === 'REST' ? restBbs(server) : graphqlBbs(server);
    const tenant = `bbs-sdk-${randomUUID().slice(0, 8)}`;
    keys = { issuer: await server.apiKey(tenant, ['issuer']), holder: await server.apiKey(tenant, ['holder']), verifier: await server.apiKey(tenant, ['verifier']) };
    const instance = ok(await t.createIssuer(keys.issuer, { cryptosuite: 'bbs-2023' }));
    issuerDid = instance.issuer;
    issued = ok(await t.issue(keys.issuer, { credential: credential(issuerDid) }, instance.id)).verifiableCredential;
  });

  test('derived outside the service (SDK, no service), verified inside it', async () => {
    const derived = await localSdk<Json>({ op: 'derive', credential: issued, pointers: ['/credentialSubject/over18'] });
    expect(derived['credentialSubject']).toEqual({ over18: true });
    expect(JSON.stringify(derived)).not.toContain('1990-02-02');
    expect(ok(await t.verify(keys.verifier, { verifiableCredential: derived }))).toEqual({ verified: true, checks: expect.arrayContaining(['proof']), warnings: [], errors: [] });
    const forged = { ...derived, credentialSubject: { over18: false } };
    expect(ok(await t.verify(keys.verifier, { verifiableCredential: forged })).verified).toBe(false);
  });

  test('derived inside the service, verified outside it by the SDK alone', async () => {
    const { verifiableCredential: derived } = ok(await t.derive(keys.holder, { verifiableCredential: issued, options: { selectivePointers: ['/credentialSubject/givenName'] } }));
    expect(await localSdk({ op: 'verify', credential: derived })).toEqual({ verified: true, issuer: issuerDid });
    expect(await localSdk({ op: 'verify', credential: { ...derived, credentialSubject: { givenName: 'Mallory' } } })).toMatchObject({ verified: false });
    expect(await localSdk({ op: 'verify', credential: issued })).toMatchObject({ verified: false });
  });
});
