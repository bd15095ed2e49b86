/**
 * Local bbs-2023 selective disclosure for holders who keep their credentials themselves
 * (non-custodial): derive a presentation-ready credential from a bbs-2023 base proof, and verify
 * a derived one, with no Credgate service involved. It runs W3C bbs-2023 as Digital Bazaar
 * implements it — the implementation the service runs — so what it derives the service verifies,
 * and what the service derives it verifies.
 *
 * Digital Bazaar's packages are loaded on first call only, so the rest of the SDK works without
 * them. Install them next to the SDK to use these helpers:
 *   npm install @digitalbazaar/bbs-2023-cryptosuite @digitalbazaar/bls12-381-multikey \
 *     @digitalbazaar/credentials-context @digitalbazaar/data-integrity-context @digitalbazaar/multikey-context
 */

type Json = Record<string, unknown>;
type Loader = (url: string) => Promise<{ contextUrl: null; documentUrl: string; document: unknown }>;

interface Cryptosuite {
  readonly requiredAlgorithm: string | readonly string[];
  derive?(input: Json): Promise<Json>;
  createVerifyData?(input: Json): Promise<unknown>;
  createVerifier?(input: Json): Promise<{ algorithm: string; verify(input: { data: unknown }): Promise<boolean> }>;
}
interface Bbs2023Module {
  createDiscloseCryptosuite(options: { selectivePointers: string[]; presentationHeader?: Uint8Array }): Cryptosuite;
  createVerifyCryptosuite(options?: { expectedPresentationHeader?: Uint8Array }): Cryptosuite;
}

/** Options of both helpers. */
export interface Bbs2023LocalOptions {
  /** Extra JSON-LD contexts by URL, for credentials whose contexts are not among the W3C ones loaded by default. */
  readonly contexts?: Readonly<Record<string, unknown>>;
}

/** What {@link verifyBbs2023} answers: a verdict, never an exception for a bad proof. */
export type Bbs2023LocalVerification = { readonly verified: true; readonly issuer: string } | { readonly verified: false; readonly reason: string };

const MULTIKEY_V1 = 'https://w3id.org/security/multikey/v1';
const DID_V1 = 'https://www.w3.org/ns/did/v1';
const BBS_SUITE = 'bbs-2023';

// A string specifier keeps TypeScript from resolving these untyped ESM-only packages at build
// time; they are required only when a helper is first called (Node >= 20.19 requires ESM).
const load = (name: string): Promise<unknown> => import(name);

let loaded: Promise<{ suite: Bbs2023Module; contexts: Map<string, unknown> }> | undefined;

function modules(): Promise<{ suite: Bbs2023Module; contexts: Map<string, unknown> }> {
  loaded ??= (async () => {
    const [suite, credentials, dataIntegrity, multikey] = await Promise.all([
      load('@digitalbazaar/bbs-2023-cryptosuite'),
      load('@digitalbazaar/credentials-context'),
      load('@digitalbazaar/data-integrity-context'),
      load('@digitalbazaar/multikey-context'),
    ]);
    const contexts = new Map<string, unknown>();
    for (const pkg of [credentials, dataIntegrity, multikey]) {
      const p = pkg as { contexts?: Map<string, unknown>; default?: { contexts?: Map<string, unknown> } };
      for (const [url, doc] of p.contexts ?? p.default?.contexts ?? new Map<string, unknown>()) contexts.set(url, doc);
    }
    return { suite: suite as Bbs2023Module, contexts };
  })();
  return loaded;
}

/** did:key documents of BLS12-381 G2 keys (`zUC7…`), built locally: verification needs nothing from the network. */
function didKeyDocument(url: string): Json {
  const [did = '', fragment] = url.split('#');
  const fingerprint = did.slice('did:key:'.length);
  if (!/^zUC7[1-9A-HJ-NP-Za-km-z]+$/.test(fingerprint) || (fragment !== undefined && fragment !== fingerprint)) throw new Error(`not a BLS12-381 G2 did:key: ${url}`);
  const method = { id: `${did}#${fingerprint}`, type: 'Multikey', controller: did, publicKeyMultibase: fingerprint };
  if (fragment !== undefined) return { '@context': MULTIKEY_V1, ...method };
  return { '@context': [DID_V1, MULTIKEY_V1], id: did, verificationMethod: [method], assertionMethod: [method.id] };
}

function loaderOf(contexts: Map<string, unknown>, extra: Readonly<Record<string, unknown>> = {}): Loader {
  return async (url) => {
    const document = extra[url] ?? contexts.get(url) ?? (url.startsWith('did:key:') ? didKeyDocument(url) : undefined);
    if (document === undefined) throw new Error(`unknown JSON-LD context or document ${url} (pass it in options.contexts)`);
    return { contextUrl: null, documentUrl: url, document: structuredClone(document) };
  };
}

function splitProof(credential: Json): { document: Json; proof: Json } {
  const { proof, ...document } = credential;
  const proofs = Array.isArray(proof) ? proof : proof === undefined ? [] : [proof];
  const mine = proofs.filter((p): p is Json => p !== null && typeof p === 'object' && (p as Json)['type'] === 'DataIntegrityProof' && (p as Json)['cryptosuite'] === BBS_SUITE);
  if (mine.length !== 1) throw new Error('the credential must carry exactly one bbs-2023 proof');
  return { document, proof: { ...mine[0] } };
}

const randomHeader = (): Uint8Array => globalThis.crypto.getRandomValues(new Uint8Array(32));

/**
 * Derives, from a credential with a bbs-2023 base proof (as the issuer gave it to the holder), a
 * credential disclosing the issuer's mandatory claims and `selectivePointers` (JSON pointers such as
 * `/credentialSubject/over18`) only. Each call draws fresh randomness: two derivations are unlinkable.
 */
export async function deriveBbs2023(credential: Json, selectivePointers: readonly string[], options: Bbs2023LocalOptions = {}): Promise<Json> {
  const { suite, contexts } = await modules();
  const { document, proof } = splitProof(credential);
  const cryptosuite = suite.createDiscloseCryptosuite({ selectivePointers: [...selectivePointers], presentationHeader: randomHeader() });
  const matchProof = async ({ proof: p }: { proof: Json }): Promise<boolean> => p['type'] === 'DataIntegrityProof' && p['cryptosuite'] === BBS_SUITE;
  if (!cryptosuite.derive) throw new Error('the bbs-2023 cryptosuite cannot derive');
  return cryptosuite.derive({ cryptosuite, document, purpose: { term: proof['proofPurpose'] }, proofSet: [proof], documentLoader: loaderOf(contexts, options.contexts), dataIntegrityProof: { matchProof } });
}

/**
 * Verifies a derived bbs-2023 credential with the public key its did:key names, offline. Base
 * proofs are refused (a verifier receives derivations only, as the specification has it).
 */
export async function verifyBbs2023(credential: Json, options: Bbs2023LocalOptions = {}): Promise<Bbs2023LocalVerification> {
  const { suite, contexts } = await modules();
  try {
    const { document, proof } = splitProof(credential);
    if (proof['proofPurpose'] !== 'assertionMethod') return { verified: false, reason: 'the proof purpose is not assertionMethod' };
    if (typeof proof['proofValue'] !== 'string' || !proof['proofValue'].startsWith('u2V0D')) return { verified: false, reason: 'not a bbs-2023 derived proof' };
    const documentLoader = loaderOf(contexts, options.contexts);
    const method = (await documentLoader(String(proof['verificationMethod']))).document as Json;
    const cryptosuite = suite.createVerifyCryptosuite();
    if (!cryptosuite.createVerifyData || !cryptosuite.createVerifier) throw new Error('the bbs-2023 cryptosuite cannot verify');
    const verifyData = await cryptosuite.createVerifyData({ cryptosuite, document, proof, documentLoader, verificationMethod: method });
    const verifier = await cryptosuite.createVerifier({ verificationMethod: method });
    const required: readonly string[] = typeof cryptosuite.requiredAlgorithm === 'string' ? [cryptosuite.requiredAlgorithm] : cryptosuite.requiredAlgorithm;
    if (!required.includes(verifier.algorithm)) return { verified: false, reason: 'not a BBS BLS12-381 key' };
    if (!(await verifier.verify({ data: verifyData }))) return { verified: false, reason: 'the BBS proof does not verify' };
    return { verified: true, issuer: String(method['controller']) };
  } catch (e) {
    return { verified: false, reason: e instanceof Error ? e.message : String(e) };
  }
}
