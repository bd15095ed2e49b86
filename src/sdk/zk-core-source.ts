// Lives in src/sdk so the SDK package (compiled from src/sdk alone) ships the very source the service's workers run.
/**
 * The BBS + Bulletproofs++ operations, as JavaScript source. It is a string for the same reason as
 * the canonicalisation and face workers (src/canon/canon-worker.ts): a worker started with
 * `{ eval: true }` runs it unchanged from dist/ and under jest, and it requires nothing by bare name
 * (the caller passes the absolute path of @docknetwork/crypto-wasm-ts). The same source is also
 * evaluated in-thread by the SDK's local `proveZkAge` helper (zk-age.ts), so the service and a non-custodial holder
 * build byte-identical proof specs: a proof made on either side verifies on the other.
 *
 * `makeZkCore(z)` takes the initialised crypto-wasm-ts module and returns plain functions over
 * Uint8Arrays (structured-cloneable in and out):
 *   publicKey({ secretSeed })                                   -> Uint8Array (BBS G2 public key)
 *   sign({ secretSeed, messages })                              -> Uint8Array (BBS signature)
 *   prove({ signature, publicKey, messages, ranges, context, nonce }) -> Uint8Array (composite proof)
 *   verify({ proof, publicKey, messageCount, ranges, context, nonce }) -> boolean
 * A message is { n: number } (a non-negative safe integer, range-provable) or { b: Uint8Array }
 * (opaque bytes, hashed to a scalar). A range is { index, min, max } meaning min <= m < max.
 * Every message stays hidden: the verifier's statements reveal none (an empty revealed map).
 */
export const ZK_CORE_SOURCE = `
function makeZkCore(z) {
  const te = new TextEncoder();
  // Fixed, public labels: prover and verifier derive the same generators with no setup ceremony.
  const SIG_LABEL = te.encode('credgate/zk/bbs-signature-params/v1');
  const BPP_LABEL = te.encode('credgate/zk/bulletproofs-pp/v1');
  // Speed (issue 18, measured with bench/zk.bench.js): everything below that depends on public
  // labels only is made once per thread. The Bulletproofs++ params (13 KB) go into a proof spec once,
  // as a setup parameter that every range statement refers to by index, instead of a copy in each
  // statement that the WASM deserialises and checks again (range verification took twice as long).
  // Proofs are byte-compatible either way: a proof made with inline params verifies under a spec
  // with references and the reverse (checked when this was changed).
  let bpp;
  let bppSetup;
  const bppParams = () => (bpp = bpp || new z.BoundCheckBppParams(BPP_LABEL).decompress());
  const bppSetupParam = () => (bppSetup = bppSetup || z.SetupParam.bppSetupParamsUncompressed(bppParams()));
  // BBS generators per message count: hash-to-curve of the label, the same every time.
  const sigParamsByCount = new Map();
  const sigParams = (count) => {
    let params = sigParamsByCount.get(count);
    if (params === undefined) {
      params = z.BBSSignatureParams.generate(count, SIG_LABEL);
      if (sigParamsByCount.size < 64) sigParamsByCount.set(count, params);
    }
    return params;
  };
  const encode = (m) => (typeof m.n === 'number' ? z.MessageEncoder.encodePositiveNumberForSigning(m.n) : z.MessageEncoder.encodeMessageForSigning(m.b));
  const secretKey = (seed) => z.BBSSecretKey.generate(seed);

  // Per-verifier pseudonym: bases derived from the verifier's scope, bound to message 0 (the
  // credential id), so one credential shows one stable pseudonym per verifier and unrelated ones
  // to different verifiers.
  const pseudonymBases = (scope) => z.PseudonymBases.generateBasesForAttributes(1, scope);

  function spec(params, publicKey, ranges, context, prover, pseudonym) {
    const statements = new z.Statements();
    const sig = prover
      ? z.Statement.bbsSignatureProverConstantTime(params, new Map(), false)
      : z.Statement.bbsSignatureVerifierConstantTime(params, new z.BBSPublicKey(publicKey), new Map(), false);
    statements.add(sig);
    const metas = new z.MetaStatements();
    const setup = ranges.length > 0 ? [bppSetupParam()] : [];
    if (pseudonym) {
      const bases = pseudonymBases(pseudonym.scope);
      const s = statements.add(
        prover ? z.Statement.attributeBoundPseudonym(new z.Pseudonym(pseudonym.value), bases) : z.Statement.attributeBoundPseudonymVerifier(pseudonym.value, bases),
      );
      const eq = new z.WitnessEqualityMetaStatement();
      eq.addWitnessRef(0, 0);
      eq.addWitnessRef(s, 0);
      metas.add(z.MetaStatement.witnessEquality(eq));
    }
    for (const r of ranges) {
      const s = statements.add(z.Statement.boundCheckBppFromSetupParamRefs(r.min, r.max, 0));
      // The bounded value IS the signed message: equality of witnesses ties them together.
      const eq = new z.WitnessEqualityMetaStatement();
      eq.addWitnessRef(0, r.index);
      eq.addWitnessRef(s, 0);
      metas.add(z.MetaStatement.witnessEquality(eq));
    }
    return new z.ProofSpec(statements, metas, setup, context);
  }

  return {
    publicKey({ secretSeed }) {
      return secretKey(secretSeed).generatePublicKey(sigParams(1)).bytes;
    },
    sign({ secretSeed, messages }) {
      const params = sigParams(messages.length);
      return z.BBSSignature.generate(messages.map(encode), secretKey(secretSeed), params, false).bytes;
    },
    pseudonym({ scope, messages }) {
      return z.AttributeBoundPseudonym.new(pseudonymBases(scope), [encode(messages[0])]).bytes;
    },
    prove({ signature, publicKey, messages, ranges, context, nonce, pseudonym }) {
      const params = sigParams(messages.length);
      const encoded = messages.map(encode);
      const sig = new z.BBSSignature(signature);
      // A signature that does not verify (or does not even decode to a curve point) would make a
      // proof that fails later; refuse it here.
      let valid = false;
      try {
        valid = sig.verify(encoded, new z.BBSPublicKey(publicKey), params, false).verified === true;
      } catch (e) {
        valid = false;
      }
      if (!valid) throw new Error('SIGNATURE_INVALID');
      for (const r of ranges) {
        const m = messages[r.index];
        if (!m || typeof m.n !== 'number' || m.n < r.min || m.n >= r.max) throw new Error('PREDICATE_FALSE');
      }
      const witnesses = new z.Witnesses();
      witnesses.add(z.Witness.bbsSignatureConstantTime(sig, new Map(encoded.map((m, i) => [i, m])), false));
      if (pseudonym) witnesses.add(z.Witness.attributeBoundPseudonym([encoded[0]]));
      for (const r of ranges) witnesses.add(z.Witness.boundCheckBpp(encoded[r.index]));
      return z.CompositeProof.generate(spec(params, publicKey, ranges, context, true, pseudonym), witnesses, nonce).bytes;
    },
    verify({ proof, publicKey, messageCount, ranges, context, nonce, pseudonym }) {
      try {
        const params = sigParams(messageCount);
        return new z.CompositeProof(proof).verify(spec(params, publicKey, ranges, context, false, pseudonym), nonce).verified === true;
      } catch (e) {
        // Bytes that do not even parse as a proof (or a key that is not a G2 point) do not verify.
        return false;
      }
    },
  };
}
`;

export interface ZkMessage {
  readonly n?: number;
  readonly b?: Uint8Array;
}

/** min <= messages[index] < max, proven without revealing the message. */
export interface ZkRange {
  readonly index: number;
  readonly min: number;
  readonly max: number;
}

/** A per-verifier pseudonym: `value` = the pseudonym of message 0 under bases derived from `scope`. */
export interface ZkPseudonym {
  readonly scope: Uint8Array;
  readonly value: Uint8Array;
}

export interface ZkCore {
  publicKey(input: { secretSeed: Uint8Array }): Uint8Array;
  pseudonym(input: { scope: Uint8Array; messages: readonly ZkMessage[] }): Uint8Array;
  sign(input: { secretSeed: Uint8Array; messages: readonly ZkMessage[] }): Uint8Array;
  prove(input: { signature: Uint8Array; publicKey: Uint8Array; messages: readonly ZkMessage[]; ranges: readonly ZkRange[]; context: Uint8Array; nonce: Uint8Array; pseudonym?: ZkPseudonym }): Uint8Array;
  verify(input: { proof: Uint8Array; publicKey: Uint8Array; messageCount: number; ranges: readonly ZkRange[]; context: Uint8Array; nonce: Uint8Array; pseudonym?: ZkPseudonym }): boolean;
}

/** Builds the core in this thread from an initialised crypto-wasm-ts module (the SDK helper, unit tests). */
export function zkCoreOf(cryptoWasm: unknown): ZkCore {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one shared source, see above
  const make = new Function(`${ZK_CORE_SOURCE}; return makeZkCore;`)() as (z: unknown) => ZkCore;
  return make(cryptoWasm);
}
