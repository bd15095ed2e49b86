/**
 * One signer abstraction (issue 20): the Family A proof code signs through the signer port
 * (src/domain/keys/signer.port.ts) exactly as it signs with a seed, and the format folders' signer
 * names are that port, not look-alikes that could drift apart.
 */
import { base58 } from '@scure/base';
import { createDocumentLoader } from '../../src/domain/contexts';
import type { Es256Signer, ProofSigner, Signer } from '../../src/domain/keys/signer.port';
import { signEd25519Signature2018, verifyEd25519Signature2018, type JsonObject } from '../../src/domain/proofs';
import { AppError } from '../../src/errors';
import type { Oid4vciSigner } from '../../src/formats/format';
import type { MdocSigner } from '../../src/formats/mdoc';
import type { JoseSigner } from '../../src/formats/sd-jwt-vc';
import type { IssuerSigner } from '../../src/oid4vc/issuer';
import type { Signer as RequestSigner } from '../../src/oid4vc/verifier/ports';
import type { ProofSigner as VcProofSigner } from '../../src/vc/ports';
import { createKeySigner } from '../../src/vc/signers/key-signer';
import type { Signer as X509Signer } from '../../src/x509';
import { readSharedJson } from '../support/shared';

const vector = <T>(file: string): T => readSharedJson<T>('vectors', 'ed25519signature2018', file);
const key = vector<{ publicKeyBase58: string; privateKeyBase58: string; id: string }>('keys_key.json');
const publicKey = base58.decode(key.publicKeyBase58);
const seed = base58.decode(key.privateKeyBase58).slice(0, 32);
const loader = createDocumentLoader();
const credential = vector<JsonObject>('credentials_case-2.json');
const { jws, ...proofOptions } = vector<JsonObject>('proofs_digital-bazaar_case-2.json');

/** Type-level identity: each side must accept the other, so a format's signer name whose shape drifts from the port fails the typecheck. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const formatSignersAreThePort: [
  Same<MdocSigner, Es256Signer>,
  Same<JoseSigner, Es256Signer>,
  Same<Oid4vciSigner, Es256Signer>,
  Same<IssuerSigner, Es256Signer>,
  Same<RequestSigner, Es256Signer>,
  Same<X509Signer, Es256Signer>,
  Same<VcProofSigner, ProofSigner>,
] = [true, true, true, true, true, true, true];

describe('Ed25519Signature2018 through the signer port', () => {
  it('reproduces the published jws of digitalbazaar case-2, byte for byte, as the seed does', async () => {
    expect(formatSignersAreThePort).toEqual([true, true, true, true, true, true, true]);
    const signer = createKeySigner({ keyType: 'Ed25519', privateKey: seed }, key.id);
    const viaSigner = await signEd25519Signature2018(credential, { signer, proof: proofOptions, documentLoader: loader });
    const viaSeed = await signEd25519Signature2018(credential, { seed, proof: proofOptions, documentLoader: loader });
    expect(viaSigner.proof.jws).toBe(jws);
    expect(viaSigner).toEqual(viaSeed);
    await expect(verifyEd25519Signature2018(viaSigner, { publicKey, documentLoader: loader })).resolves.toEqual({ verified: true });
  });

  it('signs the detached JWS signing input and nothing else (the signer sees no key, only bytes)', async () => {
    const seen: Uint8Array[] = [];
    const inner = createKeySigner({ keyType: 'Ed25519', privateKey: seed }, key.id);
    const recording: Signer = { sign: async (data) => (seen.push(data), inner.sign(data)) };
    await signEd25519Signature2018(credential, { signer: recording, proof: proofOptions, documentLoader: loader });
    expect(seen).toHaveLength(1);
    // ASCII(b64url(header)) || '.' || 64 bytes of verify data (two SHA-256 hashes).
    const text = Buffer.from(seen[0] ?? []).toString('latin1');
    expect(text.startsWith(`${String(jws).split('..')[0]}.`)).toBe(true);
    expect(seen[0]?.length).toBe(String(jws).split('..')[0]!.length + 1 + 64);
  });

  it.each([
    ['a 63-byte signature', new Uint8Array(63)],
    ['a 96-byte (P-384-sized) signature', new Uint8Array(96)],
    ['no bytes at all', 'not bytes' as unknown as Uint8Array],
  ])('refuses a signer that returns %s: INTERNAL, no proof, no key in the message', async (_what, returned) => {
    const broken: Signer = { sign: async () => returned };
    const error: unknown = await signEd25519Signature2018(credential, { signer: broken, proof: proofOptions, documentLoader: loader }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('INTERNAL');
    expect((error as AppError).message).toBe('the signer did not return a 64-byte Ed25519 signature');
  });
});
