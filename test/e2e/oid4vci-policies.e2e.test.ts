/**
 * Issue 21, OpenID4VCI policies that are off by default and refuse when on: server DPoP nonces
 * (use_dpop_nonce, RFC 9449 §8), key attestation of proof keys, and OAuth client attestation of
 * wallets (attest_jwt_client_auth). The compiled service runs with them switched on and the
 * independent wallet (test/wallets/oid4vci-wallet.mjs, oid4vc-ts client) shows each refusal, and
 * that a genuine attestation (signed by a wallet provider whose root is among the deployment's
 * trust anchors, CREDGATE_OID4VC_TRUST_ANCHORS_FILE) is accepted and the credential issued.
 */
import { type JsonWebKey, randomBytes, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { derToX5c, toPem } from '../../src/x509';
import { testLeaf, testRoot } from '../support/x509-test-ca';
import { type RunningService, runCliAsync, startService } from '../support/process';
import { type TestDatabase, createTestDatabase } from '../support/test-db';
import { request } from '../support/http';
import { endpointAt } from '../support/harness';
import { restFamilyA } from '../support/family-a-transports';
import { schemaBody, unwrap } from '../support/family-a-fixtures';
import { restOffers } from '../support/oid4vci-transports';
import { runIssuanceWallet, stepOf } from '../support/oid4vci-wallet';

jest.setTimeout(180_000);

const SD_JWT = 'schema.Badge.v1.sd_jwt';

interface Deployment {
  db: TestDatabase;
  svc: RunningService;
  key: string;
}

/** A wallet provider under a root the deployments trust: its attestation key and x5c chain. */
let provider: { privateJwk: JsonWebKey; x5c: string[] };
let anchorsDir: string;
let anchorsFile: string;

beforeAll(async () => {
  const root = await testRoot('Wallet Provider Root');
  const leaf = await testLeaf(root, { dnsNames: ['wallet-provider.example'] });
  provider = { privateJwk: (await webcrypto.subtle.exportKey('jwk', leaf.keys.privateKey)) as JsonWebKey, x5c: [derToX5c(leaf.der)] };
  anchorsDir = mkdtempSync(path.join(os.tmpdir(), 'credgate-oid4vci-policies-'));
  anchorsFile = path.join(anchorsDir, 'anchors.pem');
  writeFileSync(anchorsFile, toPem(root.certificate));
});

afterAll(() => {
  if (anchorsDir) rmSync(anchorsDir, { recursive: true, force: true });
});

async function deploy(policy: Record<string, string>): Promise<Deployment> {
  const db = await createTestDatabase();
  const env: Record<string, string> = {
    DATABASE_URL: db.config.kind === 'postgres' ? db.config.url : '',
    CREDGATE_MASTER_KEY: randomBytes(32).toString('hex'),
    CREDGATE_DATA_DIR: db.dataDir,
    CREDGATE_OID4VC_TRUST_ANCHORS_FILE: anchorsFile,
    ...policy,
  };
  expect((await runCliAsync(['tenant', 'create', 'policies'], env)).status).toBe(0);
  const created = await runCliAsync(['api-key', 'create', '--tenant', 'policies', '--scopes', 'issuer'], env);
  expect(created.status).toBe(0);
  const key = (JSON.parse(created.stdout.trim()) as { key: string }).key;
  const svc = await startService(env);
  unwrap(await restFamilyA(endpointAt(svc.url), '').createSchema(key, schemaBody('Badge')));
  return { db, svc, key };
}

async function offerOn(d: Deployment) {
  return unwrap(await restOffers(endpointAt(d.svc.url)).create(d.key, { credentialConfigurationIds: [SD_JWT], claims: { name: 'Alice' }, byReference: true, txCodeLength: 6 }));
}

describe('DPoP nonces and key attestation required', () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await deploy({ CREDGATE_OID4VCI_DPOP_NONCE: 'true', CREDGATE_OID4VCI_KEY_ATTESTATION: 'true' });
  }, 180_000);
  afterAll(async () => {
    await d?.svc.stop();
    await d?.db.drop();
  });

  test('a DPoP proof without the server nonce gets use_dpop_nonce and a DPoP-Nonce; with it, a token', async () => {
    const o = await offerOn(d);
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode: 'dpop-nonce-raw' });
    expect(stepOf(out, 'token-without-nonce')).toMatchObject({ ok: false, status: 400, error: 'use_dpop_nonce', dpopNonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(stepOf(out, 'token-with-nonce')).toMatchObject({ ok: true, status: 200, tokenType: 'DPoP' });
  });

  test('the metadata asks for key attestations; a proof without one is invalid_proof and nothing is issued', async () => {
    const meta = await request(d.svc.url, 'GET', '/.well-known/openid-credential-issuer/oid4vc/policies');
    expect(meta.json.credential_configurations_supported[SD_JWT].proof_types_supported.jwt.key_attestations_required).toEqual({});
    const o = await offerOn(d);
    // The oid4vc-ts client follows use_dpop_nonce by itself, and will not even build a proof without
    // the attestation the metadata asks for: the wallet sends this one by hand.
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode: 'no-key-attestation' });
    expect(stepOf(out, 'token-type')).toMatchObject({ ok: true, tokenType: 'DPoP' });
    expect(stepOf(out, 'credential')).toMatchObject({ ok: false, status: 400, error: 'invalid_proof', description: expect.stringContaining('key attestation') });
    expect(unwrap(await restOffers(endpointAt(d.svc.url)).get(d.key, o.id)).status).toBe('token-issued');
  });

  test('a key attestation by a trusted wallet provider naming the proof key is accepted: the credential is bound to that key', async () => {
    const o = await offerOn(d);
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode: 'provider-key-attestation', walletProvider: provider });
    expect(stepOf(out, 'credential')).toMatchObject({ ok: true, status: 200 });
    expect(out.credentials).toHaveLength(1);
    const payload = JSON.parse(Buffer.from((out.credentials[0] as string).split('~')[0]!.split('.')[1]!, 'base64url').toString());
    expect(payload.cnf.jwk).toMatchObject({ x: out.holderJwks[0]!.x, y: out.holderJwks[0]!.y });
    expect(unwrap(await restOffers(endpointAt(d.svc.url)).get(d.key, o.id)).status).toBe('credential-issued');
  });

  test('a self-signed key attestation (the wallet vouching for itself) is invalid_proof', async () => {
    const o = await offerOn(d);
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode: 'self-signed-key-attestation' });
    expect(stepOf(out, 'credential')).toMatchObject({ ok: false, status: 400, error: 'invalid_proof', description: expect.stringContaining('trusted wallet provider') });
    expect(unwrap(await restOffers(endpointAt(d.svc.url)).get(d.key, o.id)).status).toBe('token-issued');
  });
});

describe('wallet attestation required', () => {
  let d: Deployment;
  beforeAll(async () => {
    d = await deploy({ CREDGATE_OID4VCI_WALLET_ATTESTATION: 'true' });
  }, 180_000);
  afterAll(async () => {
    await d?.svc.stop();
    await d?.db.drop();
  });

  test('the metadata names attest_jwt_client_auth only; a wallet without an attestation gets invalid_client, the code stays unspent', async () => {
    const as = await request(d.svc.url, 'GET', '/.well-known/oauth-authorization-server/oid4vc/policies');
    expect(as.json.token_endpoint_auth_methods_supported).toEqual(['attest_jwt_client_auth']);
    const o = await offerOn(d);
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode });
    expect(stepOf(out, 'token')).toMatchObject({ ok: false, status: 401, error: 'invalid_client' });
    expect(unwrap(await restOffers(endpointAt(d.svc.url)).get(d.key, o.id))).toMatchObject({ status: 'offered', locked: false });
  });

  test('a wallet attestation by a trusted wallet provider, bound to the DPoP key, gets a token and the credential', async () => {
    const o = await offerOn(d);
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode: 'provider-attestation', walletProvider: provider });
    expect(stepOf(out, 'token')).toMatchObject({ ok: true, status: 200 });
    expect(stepOf(out, 'token-type')).toMatchObject({ ok: true, tokenType: 'DPoP' });
    expect(stepOf(out, 'credentials')).toMatchObject({ ok: true, count: 1 });
    expect(unwrap(await restOffers(endpointAt(d.svc.url)).get(d.key, o.id)).status).toBe('credential-issued');
  });

  test('a self-signed wallet attestation (no chain to a trusted wallet provider) is invalid_client', async () => {
    const o = await offerOn(d);
    const out = await runIssuanceWallet({ offerUri: o.offerUri, txCode: o.txCode, mode: 'self-signed-attestation' });
    expect(stepOf(out, 'token')).toMatchObject({ ok: false, status: 401, error: 'invalid_client', description: expect.stringContaining('trusted wallet provider') });
    expect(unwrap(await restOffers(endpointAt(d.svc.url)).get(d.key, o.id)).status).toBe('offered');
  });
});
