import { createHash } from 'node:crypto';
import { base58btcEncode } from '../../../src/domain/encoding/multibase';
import { bytesToHex } from '../../../src/domain/encoding/hex';
import { addProof, createDataIntegrityProof, hashData, suiteForSigning, verifyProof } from '../../../src/vc/proofs';
import type { DataIntegrityCryptosuite, JsonObject } from '../../../src/vc/ports';
import { createTestDidResolver } from '../../support/vc/did-key-resolver';
import { vectorJson, vectorLoader, vectorSigner, vectorText } from '../../support/vc/vectors';

/** The published vc-di-eddsa vectors (test/fixtures/vectors/vc-di-eddsa, w3c/vc-di-eddsa@abb673e). */

const env = { documentLoader: vectorLoader };
const resolver = createTestDidResolver();
const verifyOptions = { resolver, expectedProofPurpose: 'assertionMethod' as const };
const keyPair = vectorJson('keyPair.json') as { publicKeyMultibase: string; privateKeyMultibase: string };
const signer = vectorSigner(keyPair);
const text = (dir: string, file: string): string => vectorText(dir, file).trim();
const withoutProofValue = (proof: JsonObject): JsonObject => {
  const { proofValue: _v, ...rest } = proof;
  return rest;
};

interface Chain {
  dir: string;
  suite: DataIntegrityCryptosuite | 'Ed25519Signature2020';
  tag: string;
}

const CHAINS: Chain[] = [
  { dir: 'eddsa-rdfc-2022', suite: 'eddsa-rdfc-2022', tag: 'DataInt' },
  { dir: 'eddsa-jcs-2022', suite: 'eddsa-jcs-2022', tag: 'JCS' },
  { dir: 'Ed25519Signature2020', suite: 'Ed25519Signature2020', tag: 'EdSig' },
];

describe.each(CHAINS)('vc-di-eddsa vector $dir', ({ dir, suite, tag }) => {
  const signed = vectorJson(dir, `signed${tag}.json`);
  const proofConfig = vectorJson(dir, `proofConfig${tag}.json`);
  const { proof, ...unsecured } = signed as JsonObject & { proof: JsonObject };

  it('verifies the published signed credential', async () => {
    const result = await verifyProof(signed, verifyOptions, env);
    expect(result.errors).toEqual([]);
    expect(result.verified).toBe(true);
    expect(result.verificationMethod).toBe(proof.verificationMethod);
  });

  it('reproduces every intermediate value: canonical forms, hashes and signature', async () => {
    const config = suite === 'eddsa-jcs-2022' ? proofConfig : withoutProofValue({ ...proofConfig, '@context': undefined });
    const cleaned = Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
    const h = await hashData({ unsecured, proofConfig: cleaned, suite: suiteForSigning(suite), hash: 'sha256', documentLoader: vectorLoader });
    expect(h.canonicalDocument.trim()).toBe(text(dir, `canonDoc${tag}.txt`));
    expect(h.canonicalProofConfig.trim()).toBe(text(dir, `proofCanon${tag}.txt`));
    expect(bytesToHex(h.documentHash)).toBe(text(dir, `docHash${tag}.txt`));
    expect(bytesToHex(h.proofHash)).toBe(text(dir, `proofHash${tag}.txt`));
    expect(bytesToHex(h.hashData)).toBe(text(dir, `combinedHash${tag}.txt`));
    const signature = await signer.sign(h.hashData);
    expect(bytesToHex(signature)).toBe(text(dir, `sigHex${tag}.txt`));
    expect(`z${base58btcEncode(signature)}`).toBe(text(dir, `sigBTC58${tag}.txt`));
  });

  it('addProof with the vector key and created reproduces the signed credential exactly', async () => {
    const signedByUs = await addProof(vectorJson('unsigned.json'), signer, { suite, proofPurpose: 'assertionMethod', created: proof.created as string }, env);
    expect(signedByUs).toEqual(signed);
    expect(JSON.stringify(signedByUs)).toBe(JSON.stringify(signed));
  });
});

describe('vc-di-eddsa vector eddsa-rdfc-2022/employ (context not available: checked from its canonical forms)', () => {
  const dir = 'eddsa-rdfc-2022/employ';
  it('hashes, signs and verifies as published', async () => {
    const sha = (s: string): Buffer => createHash('sha256').update(s).digest();
    const docHash = sha(vectorText(dir, 'canonDocDataInt.txt'));
    const proofHash = sha(vectorText(dir, 'proofCanonDataInt.txt'));
    expect(docHash.toString('hex')).toBe(text(dir, 'docHashDataInt.txt'));
    expect(proofHash.toString('hex')).toBe(text(dir, 'proofHashDataInt.txt'));
    const combined = Buffer.concat([proofHash, docHash]);
    expect(combined.toString('hex')).toBe(text(dir, 'combinedHashDataInt.txt'));
    const employSigner = vectorSigner(keyPair);
    const signed = vectorJson(dir, 'signedDataInt.json') as { proof: { verificationMethod: string; proofValue: string } };
    expect(signed.proof.verificationMethod).toBe(employSigner.verificationMethod);
    const signature = await employSigner.sign(new Uint8Array(combined));
    expect(bytesToHex(signature)).toBe(text(dir, 'sigHexDataInt.txt'));
    expect(`z${base58btcEncode(signature)}`).toBe(signed.proof.proofValue);
  });
});

describe('vc-di-eddsa proof sets and chains', () => {
  const pairs = vectorJson('proof-set-chain', 'multiKeyPairs.json') as Record<string, { publicKeyMultibase: string; privateKeyMultibase: string }>;
  const signerOf = (vm: string) => {
    const pair = Object.values(pairs).find((p) => vm.endsWith(`#${p.publicKeyMultibase}`));
    if (!pair) throw new Error(`no key for ${vm}`);
    return vectorSigner(pair);
  };
  const suite = suiteForSigning('eddsa-rdfc-2022');
  const unsigned = vectorJson('proof-set-chain', 'unsigned.json');

  it.each(['signedProofSet1.json', 'signedProofSet2.json', 'signedProofChain1.json', 'signedProofChain2.json'])('verifies %s', async (file) => {
    const result = await verifyProof(vectorJson('proof-set-chain', file), verifyOptions, env);
    expect(result.errors).toEqual([]);
    expect(result.verified).toBe(true);
  });

  it.each([
    ['proofSetConfig1.json', 'proofSetConfigSigned1.json'],
    ['proofSetConfig2.json', 'proofSetConfigSigned2.json'],
  ])('signs the proof set member %s exactly as published', async (config, expected) => {
    const proofConfig = vectorJson('proof-set-chain', config);
    const proof = await createDataIntegrityProof(unsigned, proofConfig, suite, signerOf(proofConfig.verificationMethod as string), env);
    expect(proof).toEqual(vectorJson('proof-set-chain', expected));
  });

  it.each([
    ['proofChainConfig1.json', 'proofChainTempDoc1.json', 'proofChainConfigSigned1.json'],
    ['proofChainConfig2.json', 'proofChainTempDoc2.json', 'proofChainConfigSigned2.json'],
  ])('signs the chained proof %s over its previous proofs exactly as published', async (config, tempDoc, expected) => {
    const proofConfig = vectorJson('proof-set-chain', config);
    const proof = await createDataIntegrityProof(vectorJson('proof-set-chain', tempDoc), proofConfig, suite, signerOf(proofConfig.verificationMethod as string), env);
    expect(proof).toEqual(vectorJson('proof-set-chain', expected));
  });

  it('a chain whose previous proof was removed fails with PREVIOUS_PROOF_NOT_FOUND', async () => {
    const chain = vectorJson('proof-set-chain', 'signedProofChain2.json') as JsonObject & { proof: JsonObject[] };
    const broken = { ...chain, proof: chain.proof.filter((p) => p.id !== 'urn:uuid:d94f792a-c546-4d06-b38a-da070ab56c23') };
    const result = await verifyProof(broken, verifyOptions, env);
    expect(result.verified).toBe(false);
    expect(result.errors.map((e) => e.type)).toContain('PREVIOUS_PROOF_NOT_FOUND');
  });

  it('a proof set with one altered member does not verify', async () => {
    const set = vectorJson('proof-set-chain', 'signedProofSet2.json') as JsonObject & { proof: JsonObject[] };
    const [first, second] = set.proof as [JsonObject, JsonObject];
    const altered = { ...set, proof: [first, { ...second, created: '2023-02-24T23:36:39Z' }] };
    const result = await verifyProof(altered, verifyOptions, env);
    expect(result.verified).toBe(false);
    expect(result.errors.map((e) => e.type)).toEqual(['PROOF_VERIFICATION_ERROR']);
    expect(result.errors[0]?.detail).toMatch(/^proof\[1\]/);
  });
});
