import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { useTestServer } from '../support/harness';
import { request } from '../support/http';
import { type VcApiTransport, type VcResult, expectProblem, graphqlVcApi, restVcApi } from '../support/vc-api-transports';
import { vectorJson } from '../support/vc/vectors';

/*
 * Issue 17, VC-API verification against the specifications (VC-API verify options, Data Integrity
 * proof chains, VCDM 2.0 related resources), through REST and GraphQL with the same assertions:
 * - options.checks chooses the checks and the answer lists those that ran; the issuer/controller
 *   binding is the `issuer` check, run by default, and not run when only ["proof"] is asked;
 * - a credential under the examples/v2 context verifies (the context is pinned);
 * - a proof whose previousProof is a single string (a chain) is honoured;
 * - checks we do not perform, and malformed relatedResource, are refused.
 */

const server = useTestServer();
type Json = Record<string, any>;

/** The VC-API verifier suite's valid credential (test/fixtures/vectors/vc-api/SOURCE.md). */
const suiteVector = (): Json => JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'vectors', 'vc-api', 'ed25519-signature-2020-alumni.json'), 'utf8')) as Json;
/** vc-di-eddsa proof chain: its last proof names its predecessor as a string. */
const chain = (): Json => vectorJson('proof-set-chain', 'signedProofChain2.json');
const PROOF_ONLY = { checks: ['proof'] };

function ok<T>(o: { ok: true; data: T } | { ok: false; status: number; code?: string }): T {
  if (!o.ok) throw new Error(`expected success, got ${o.status} ${o.code}`);
  return o.data;
}
const errorTypes = (r: VcResult) => r.errors.map((e) => e.type.replace(/^.*[#:]/, ''));

describe.each([['REST'], ['GraphQL']])('VC-API verification rules through %s', (name) => {
  let t: VcApiTransport;
  let verifier: string;
  beforeAll(async () => {
    t = name === 'REST' ? restVcApi(server) : graphqlVcApi(server);
    verifier = await server.apiKey(`spec-verify-${randomUUID().slice(0, 8)}`, ['verifier']);
  });

  test('checks ["proof"]: the suite vector (examples/v2, issuer not the key controller) verifies, and only the proof check ran', async () => {
    const r = ok(await t.verify(verifier, { verifiableCredential: suiteVector(), options: PROOF_ONLY }));
    expect(r).toEqual({ verified: true, checks: ['proof'], warnings: [], errors: [] });
  });

  test('by default the issuer binding runs as its own check and fails for that vector; the proof itself is sound', async () => {
    const r = ok(await t.verify(verifier, { verifiableCredential: suiteVector() }));
    expect(r.verified).toBe(false);
    expect(r.checks).toEqual(['proof', 'issuer', 'validity']);
    expect(errorTypes(r)).toEqual(['CONTROLLER_MISMATCH']);
    expect(r.errors[0]!.detail).toContain('https://vc.example/issuers/5678');
  });

  test('checks ["proof"] still catches a changed claim, a changed proof value and a missing proof member', async () => {
    const vc = suiteVector();
    const tampered: [string, Json][] = [
      ['claim', { ...vc, credentialSubject: { ...vc['credentialSubject'], alumniOf: 'Another School' } }],
      ['proofValue', { ...vc, proof: { ...vc['proof'], proofValue: `${String(vc['proof'].proofValue).slice(0, -3)}abc` } }],
      ['created', { ...vc, proof: { ...vc['proof'], created: undefined } }],
      ['proofPurpose', { ...vc, proof: { ...vc['proof'], proofPurpose: undefined } }],
    ];
    for (const [what, doc] of tampered) {
      const r = ok(await t.verify(verifier, { verifiableCredential: JSON.parse(JSON.stringify(doc)), options: PROOF_ONLY }));
      expect({ what, verified: r.verified }).toEqual({ what, verified: false });
    }
  });

  test('a proof chain whose last previousProof is a string verifies; dropping the proof it names fails', async () => {
    const r = ok(await t.verify(verifier, { verifiableCredential: chain(), options: PROOF_ONLY }));
    expect(r).toEqual({ verified: true, checks: ['proof'], warnings: [], errors: [] });
    const vc = chain();
    const proofs = vc['proof'] as Json[];
    const named = proofs[3]!['previousProof'] as string;
    expect(typeof named).toBe('string');
    const broken = ok(await t.verify(verifier, { verifiableCredential: { ...vc, proof: proofs.filter((p) => p['id'] !== named) }, options: PROOF_ONLY }));
    expect(broken.verified).toBe(false);
    expect(errorTypes(broken)).toContain('PREVIOUS_PROOF_NOT_FOUND');
  });

  test('checks name what runs: validity alone is not a proof; unknown checks, an empty list and issuer without proof are 400', async () => {
    const validityOnly = ok(await t.verify(verifier, { verifiableCredential: suiteVector(), options: { checks: ['validity'] } }));
    expect(validityOnly).toEqual({ verified: true, checks: ['validity'], warnings: [], errors: [] });
    for (const checks of [['proof', 'telepathy'], [], ['issuer'], 'proof', [42]]) {
      expect(await t.verify(verifier, { verifiableCredential: suiteVector(), options: { checks } })).toMatchObject({ ok: false, status: 400 });
    }
  });

  test('relatedResource of the wrong shape is refused at verification input, before any proof work', async () => {
    const digestSRI = 'sha384-NSOcNpmdIVUxIJGvGUoe22FjTWrXiaXlsZ8q6912LdnR3KraQO2n75Ica4wK4Qeg';
    const id = 'https://www.w3.org/ns/credentials/v2';
    for (const relatedResource of [[id], [{ digestSRI }], [{ id }], [{ id, digestSRI }, { id, digestSRI }], [{ id, digestSRI: 'sha384-_rCVIV7fSXXTNIvpiq26jRDyj8JG8TDjij-tD0ewLk4JpnXEz6a5AeeY_1qQ0d0P' }]]) {
      const r = ok(await t.verify(verifier, { verifiableCredential: { ...suiteVector(), relatedResource }, options: PROOF_ONLY }));
      expect(r.verified).toBe(false);
      expect(r.checks).toEqual([]);
      expect(errorTypes(r)).toEqual(expect.arrayContaining(['MALFORMED_VALUE_ERROR']));
    }
  });
});

test('REST: a malformed credential is a 400 problem; a proof failure under checks ["proof"] is a 422 problem', async () => {
  const verifier = await server.apiKey(`spec-verify-rest-${randomUUID().slice(0, 8)}`, ['verifier']);
  const headers = { 'X-API-Key': verifier };
  const { relatedResource: _none, ...vc } = { ...suiteVector(), relatedResource: undefined };
  const malformed = await request(server.baseUrl, 'POST', '/vc-api/credentials/verify', { headers, body: { verifiableCredential: { ...vc, evidence: {} }, options: PROOF_ONLY } });
  expect(malformed.status).toBe(400);
  expectProblem(malformed);
  const failed = await request(server.baseUrl, 'POST', '/vc-api/credentials/verify', { headers, body: { verifiableCredential: { ...vc, name: 'Changed' }, options: PROOF_ONLY } });
  expect(failed.status).toBe(422);
  expectProblem(failed);
  expect(failed.json).toMatchObject({ verified: false, checks: ['proof'] });
});
