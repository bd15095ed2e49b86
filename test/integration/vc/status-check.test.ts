import { gzipSync } from 'node:zlib';
import { canonicalBytes } from '../../../src/domain/canonical/jcs';
import { base58btcDecode, splitMulticodecPrefix } from '../../../src/domain/encoding';
import { nativeEd25519Verify } from '../../../src/domain/keys/ed25519';
import type { JsonObject, ProofSigner, ProofVerification } from '../../../src/vc/ports';
import { createDidResolver } from '../../../src/vc/resolver';
import { createKeySigner, didKeyIdentity, generateSigningKeyPair } from '../../../src/vc/signers/key-signer';
import { buildStatusListCredential, checkCredentialStatus, createHttpStatusListSource, encodeStatusList, statusListEntry, withStatusBit } from '../../../src/vc/status';
import { type FixtureServer, makeSelfSignedCert, type SelfSignedCert, startFixtureServer } from '../../support/fixture-https';
import { MAX_CLOCK_SKEW_MS } from '../../../src/vc/clock-skew';

/**
 * Status checks against lists served over real HTTPS. The list proof here is a plain Ed25519
 * signature over the JCS form of the list without its proof, by the issuer's did:key, verified
 * through the DID resolver: real keys and real signatures, standing in for the proof suites
 * (src/vc/proofs), which the callback seam lets the VC-API plug in.
 */
let tls: SelfSignedCert;
let server: FixtureServer;
let base: string;
const resolver = createDidResolver({ didWeb: false });

interface Issuer {
  readonly did: string;
  readonly signer: ProofSigner;
}

function newIssuer(): Issuer {
  const pair = generateSigningKeyPair('Ed25519');
  const { did, verificationMethod } = didKeyIdentity('Ed25519', pair.publicKey);
  return { did, signer: createKeySigner(pair, verificationMethod) };
}

async function sign(list: JsonObject, issuer: Issuer): Promise<JsonObject> {
  const signature = await issuer.signer.sign(canonicalBytes(list));
  return { ...list, proof: { type: 'TestEd25519Jcs', verificationMethod: issuer.signer.verificationMethod, proofValue: Buffer.from(signature).toString('base64url') } };
}

async function verifyList(list: JsonObject): Promise<ProofVerification> {
  const { proof, ...unsigned } = list;
  const fail = (detail: string): ProofVerification => ({ verified: false, errors: [{ type: 'PROOF_VERIFICATION_ERROR', title: 'invalid proof', detail }] });
  if (typeof proof !== 'object' || proof === null) return fail('no proof');
  const p = proof as { verificationMethod?: unknown; proofValue?: unknown };
  if (typeof p.verificationMethod !== 'string' || typeof p.proofValue !== 'string') return fail('malformed proof');
  const { method } = await resolver.dereferenceMethod(p.verificationMethod);
  if (method.controller !== unsigned.issuer) return fail('signed by someone other than the issuer');
  const key = splitMulticodecPrefix(base58btcDecode(method.publicKeyMultibase!.slice(1), 'key'), 'key').data;
  const ok = nativeEd25519Verify(new Uint8Array(Buffer.from(p.proofValue, 'base64url')), canonicalBytes(unsigned), key);
  return ok ? { verified: true, errors: [] } : fail('signature does not match');
}

const MIN = 16 * 1024;
const issuer = newIssuer();
const stranger = newIssuer();

async function publish(path: string, opts: { by?: Issuer; purpose?: string; set?: number[]; bytes?: number; tamper?: (l: JsonObject) => JsonObject; extra?: JsonObject; id?: string } = {}): Promise<string> {
  const url = `${base}${path}`;
  let bits: Uint8Array = new Uint8Array(opts.bytes ?? MIN);
  for (const i of opts.set ?? []) bits = withStatusBit(bits, i, true);
  const by = opts.by ?? issuer;
  const short = bits.length < MIN;
  let list = buildStatusListCredential({ id: opts.id ?? url, issuer: by.did, statusPurpose: opts.purpose ?? 'revocation', bits: short ? new Uint8Array(MIN) : bits, version: '2.0', validFrom: '2024-01-01T00:00:00Z' });
  // encodeStatusList refuses short lists (issuers must not publish them), so a short one is gzipped here.
  if (short) list = { ...list, credentialSubject: { ...(list.credentialSubject as JsonObject), encodedList: `u${gzipSync(bits).toString('base64url')}` } };
  list = { ...list, ...opts.extra };
  let signed = await sign(list, by);
  if (opts.tamper) signed = opts.tamper(signed);
  server.route(path, { contentType: 'application/vc', body: JSON.stringify(signed) });
  return url;
}

function credential(...entries: JsonObject[]): JsonObject {
  return {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    type: ['VerifiableCredential'],
    issuer: issuer.did,
    credentialSubject: { id: 'did:example:holder' },
    credentialStatus: entries.length === 1 ? entries[0] : entries,
  };
}

function source(extra: Parameters<typeof createHttpStatusListSource>[0] = {}) {
  return createHttpStatusListSource({ ...extra, fetch: { ca: tls.cert, allowPrivate: true, timeoutMs: 2000, ...extra.fetch } });
}

beforeAll(async () => {
  tls = makeSelfSignedCert();
  server = await startFixtureServer(tls);
  base = server.origin;
});
afterAll(async () => server.close());
beforeEach(() => server.hits.clear());

test('revocation and suspension entries report their bits (set, unset), each list fetched once', async () => {
  const rev = await publish('/status/rev', { set: [5] });
  const sus = await publish('/status/sus', { purpose: 'suspension', set: [131_071] });
  const vc = credential(
    statusListEntry({ listCredentialUrl: rev, index: 5, statusPurpose: 'revocation' }),
    statusListEntry({ listCredentialUrl: rev, index: 6, statusPurpose: 'revocation' }),
    statusListEntry({ listCredentialUrl: sus, index: 131_071, statusPurpose: 'suspension' }),
  );
  const out = await checkCredentialStatus(vc, { source: source(), verifyListCredential: verifyList });
  expect(out.problems).toEqual([]);
  expect(out.checks).toEqual([
    { purpose: 'revocation', set: true, statusListCredential: rev, index: 5 },
    { purpose: 'revocation', set: false, statusListCredential: rev, index: 6 },
    { purpose: 'suspension', set: true, statusListCredential: sus, index: 131_071 },
  ]);
  expect(server.hits.get('/status/rev')).toBe(1);
  expect(server.hits.get('/status/sus')).toBe(1);
  expect(out.checks.length + out.problems.length).toBe(3);
});

test('a credential without credentialStatus has nothing to check', async () => {
  const { credentialStatus: _omitted, ...plain } = credential(statusListEntry({ listCredentialUrl: `${base}/x`, index: 1, statusPurpose: 'revocation' }));
  expect(await checkCredentialStatus(plain, { source: source(), verifyListCredential: verifyList })).toEqual({ checks: [], problems: [] });
});

describe('a list that cannot be trusted is a problem, never a pass', () => {
  async function problemsOf(vc: JsonObject, src = source()) {
    const out = await checkCredentialStatus(vc, { source: src, verifyListCredential: verifyList, now: new Date('2025-01-01T00:00:00Z') });
    expect(out.checks).toEqual([]);
    return out.problems;
  }
  const entry = (url: string, index = 5, statusPurpose = 'revocation') => statusListEntry({ listCredentialUrl: url, index, statusPurpose });

  test('wrong purpose: a suspension entry pointing at a revocation list', async () => {
    const url = await publish('/status/purpose', { set: [5] });
    const [p] = await problemsOf(credential(entry(url, 5, 'suspension')));
    expect(p).toMatchObject({ type: 'STATUS_VERIFICATION_ERROR', title: 'status purpose mismatch' });
  });

  test('wrong issuer: a list validly signed by another DID', async () => {
    const url = await publish('/status/stranger', { by: stranger, set: [5] });
    const [p] = await problemsOf(credential(entry(url)));
    expect(p).toMatchObject({ type: 'STATUS_VERIFICATION_ERROR', title: 'status list issuer differs from the credential issuer' });
  });

  test('bad list proof: a bit cleared after signing (the callback answers unverified)', async () => {
    const url = await publish('/status/tampered', {
      set: [5],
      tamper: (l) => ({ ...l, credentialSubject: { ...(l.credentialSubject as JsonObject), encodedList: encodeStatusList(new Uint8Array(MIN)) } }),
    });
    const [p] = await problemsOf(credential(entry(url)));
    expect(p).toMatchObject({ type: 'STATUS_VERIFICATION_ERROR', title: 'status list proof is not valid' });
    expect(p!.detail).toMatch(/signature does not match/);
  });

  test("a list signed by the issuer's key but naming someone else's proof key is refused by the callback", async () => {
    const url = await publish('/status/borrowed', { by: issuer, tamper: (l) => ({ ...l, proof: { ...(l.proof as JsonObject), verificationMethod: stranger.signer.verificationMethod } }) });
    expect((await problemsOf(credential(entry(url))))[0]).toMatchObject({ title: 'status list proof is not valid' });
  });

  test("another list of the same issuer served at the entry's URL", async () => {
    const url = await publish('/status/swapped', { id: `${base}/status/original` });
    expect((await problemsOf(credential(entry(url))))[0]).toMatchObject({ title: 'status list is not the one referenced' });
  });

  test('index out of range and lists under 131,072 entries', async () => {
    const url = await publish('/status/range');
    expect((await problemsOf(credential(entry(url, 131_072))))[0]).toMatchObject({ type: 'STATUS_LIST_LENGTH_ERROR', title: 'status list index out of range' });
    const short = await publish('/status/short', { bytes: 1024 });
    expect((await problemsOf(credential(entry(short, 3))))[0]).toMatchObject({ type: 'STATUS_LIST_LENGTH_ERROR', title: 'status list too short' });
  });

  test('an expired list', async () => {
    const url = await publish('/status/expired', { extra: { validUntil: '2024-06-01T00:00:00Z' } });
    expect((await problemsOf(credential(entry(url))))[0]).toMatchObject({ title: 'status list expired' });
  });

  test("a list dated ahead of our clock: within the tolerated skew it counts, beyond it it is 'not yet valid'", async () => {
    const ahead = (ms: number) => new Date(Date.parse('2025-01-01T00:00:00Z') + ms).toISOString();
    const soon = await publish('/status/soon', { extra: { validFrom: ahead(MAX_CLOCK_SKEW_MS / 2) } });
    const out = await checkCredentialStatus(credential(entry(soon)), { source: source(), verifyListCredential: verifyList, now: new Date('2025-01-01T00:00:00Z') });
    expect(out).toEqual({ checks: [{ purpose: 'revocation', set: false, statusListCredential: soon, index: 5 }], problems: [] });
    const later = await publish('/status/later', { extra: { validFrom: ahead(2 * MAX_CLOCK_SKEW_MS) } });
    expect((await problemsOf(credential(entry(later))))[0]).toMatchObject({ type: 'STATUS_VERIFICATION_ERROR', title: 'status list not yet valid' });
  });

  test('a gzip bomb is refused by the source before anything is cached', async () => {
    const bomb = { ...(await sign(buildStatusListCredential({ id: `${base}/status/bomb`, issuer: issuer.did, statusPurpose: 'revocation', bits: new Uint8Array(MIN), version: '2.0' }), issuer)) };
    (bomb.credentialSubject as JsonObject).encodedList = `u${gzipSync(Buffer.alloc(32 * 1024 * 1024)).toString('base64url')}`;
    server.route('/status/bomb', { contentType: 'application/vc', body: JSON.stringify(bomb) });
    const [p] = await problemsOf(credential(entry(`${base}/status/bomb`)));
    expect(p).toMatchObject({ type: 'STATUS_RETRIEVAL_ERROR' });
    expect(p!.detail).toMatch(/inflates beyond 16777216 bytes/);
  });

  test('unreachable, missing, unsupported and malformed entries', async () => {
    const problems = await problemsOf(
      credential(
        entry(`${base}/status/none`),
        { type: 'StatusList2021Entry', statusPurpose: 'revocation', statusListIndex: '1', statusListCredential: `${base}/status/none` },
        { type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: 5, statusListCredential: `${base}/status/none` },
      ),
    );
    expect(problems.map((p) => [p.type, p.title])).toEqual([
      ['STATUS_RETRIEVAL_ERROR', 'status list could not be retrieved'],
      ['STATUS_VERIFICATION_ERROR', 'unsupported status type'],
      ['STATUS_VERIFICATION_ERROR', 'malformed status entry'],
    ]);
  });

  test('by default the source refuses private addresses (SSRF) without a request', async () => {
    const url = await publish('/status/private', { set: [5] });
    const guarded = createHttpStatusListSource({ fetch: { ca: tls.cert } });
    const [p] = await problemsOf(credential(entry(url)), guarded);
    expect(p).toMatchObject({ type: 'STATUS_RETRIEVAL_ERROR' });
    expect(p!.detail).toMatch(/not a public address/);
    expect(server.hits.get('/status/private')).toBeUndefined();
  });
});

test("lists are cached no longer than their own ttl / validUntil allow", async () => {
  let now = Date.parse('2025-01-01T00:00:00Z');
  const url = `${base}/status/ttl`;
  // A subject ttl of 5 s (the builder has no ttl; it is the list's own hint).
  const signed = await sign({ ...buildStatusListCredential({ id: url, issuer: issuer.did, statusPurpose: 'revocation', bits: new Uint8Array(MIN), version: '2.0' }) }, issuer);
  (signed.credentialSubject as JsonObject).ttl = 5000;
  server.route('/status/ttl', { contentType: 'application/vc', body: JSON.stringify(signed) });
  const src = source({ cache: { ttlSeconds: 300, now: () => now } });
  await src.fetchStatusListCredential(url);
  await src.fetchStatusListCredential(url);
  expect(server.hits.get('/status/ttl')).toBe(1);
  now += 6000;
  await src.fetchStatusListCredential(url);
  expect(server.hits.get('/status/ttl')).toBe(2);

  const until = await publish('/status/until', { extra: { validUntil: new Date(now + 10_000).toISOString() } });
  await src.fetchStatusListCredential(until);
  now += 9000;
  await src.fetchStatusListCredential(until);
  expect(server.hits.get('/status/until')).toBe(1);
  now += 2000;
  await src.fetchStatusListCredential(until);
  expect(server.hits.get('/status/until')).toBe(2);
});
