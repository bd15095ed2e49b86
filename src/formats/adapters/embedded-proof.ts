import { addProof, verifyProof } from '../../vc/proofs';
import type { DidResolver, JsonObject } from '../../vc/ports';
import type { FormatVerification, PresentationSupport, VerifyContext, W3cPresentRequest } from '../format';

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The proofs of a JSON document, or [] when it has none or they are not objects. */
export function proofsOf(input: unknown): JsonObject[] {
  if (!isObject(input)) return [];
  const raw = input['proof'];
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return list.every(isObject) ? list : [];
}

/** A JSON document carrying at least one proof the predicate claims (a proof set is verified as a whole). */
export function hasProof(input: unknown, claims: (proof: JsonObject) => boolean): boolean {
  return proofsOf(input).some(claims);
}

export function resolverOf(context: VerifyContext, format: string): DidResolver {
  // A wiring fault, not the caller's input: the composition root gives every verifier a resolver.
  if (!context.resolver) throw new Error(`verifying ${format} needs a DID resolver`);
  return context.resolver;
}

/**
 * Verification of every embedded proof through src/vc/proofs (verifyProof dispatches on each
 * proof's type and checks the whole proof set), shared by the formats whose proofs sit beside
 * what they sign: the Data Integrity suites and the seed's two profiles. The proof clock is the
 * system's unless the context names one, as it was before formats were registered.
 */
export async function verifyEmbedded(input: unknown, context: VerifyContext, format: string): Promise<FormatVerification> {
  if (!isObject(input)) return { verified: false, issuerBound: false, problems: [{ type: 'MALFORMED_PROOF', title: 'The proof is malformed', detail: 'the document is not a JSON object' }] };
  const now = context.now;
  const r = await verifyProof(
    input,
    {
      resolver: resolverOf(context, format),
      expectedProofPurpose: context.purpose ?? 'assertionMethod',
      ...(context.challenge !== undefined ? { challenge: context.challenge } : {}),
      ...(context.domain !== undefined ? { domain: context.domain } : {}),
      ...(context.expectedController !== undefined ? { expectedController: context.expectedController } : {}),
    },
    now ? { now: () => now } : {},
  );
  return {
    verified: r.verified,
    problems: r.errors,
    issuerBound: false,
    credential: input,
    ...(r.suite !== undefined ? { suite: r.suite } : {}),
    ...(r.verificationMethod !== undefined ? { verificationMethod: r.verificationMethod } : {}),
    ...(r.controllers !== undefined ? { controllers: r.controllers } : {}),
  };
}

/** Presentations with an embedded proof of the same kind: verified for authentication by the holder. */
export function embeddedPresentation(format: string, claims: (proof: JsonObject) => boolean): PresentationSupport {
  return {
    detect: (input) => hasProof(input, claims),
    verify: (input, context) => verifyEmbedded(input, { ...context, purpose: context.purpose ?? 'authentication' }, format),
  };
}

/** A holder's presentation signed with an embedded proof for authentication, bound to the verifier's challenge and domain. */
export async function presentEmbedded(suite: 'eddsa-rdfc-2022' | 'eddsa-jcs-2022' | 'ecdsa-rdfc-2019' | 'Ed25519Signature2020', request: W3cPresentRequest): Promise<JsonObject> {
  return addProof(request.presentation, request.signer, {
    suite,
    proofPurpose: 'authentication',
    ...(request.challenge !== undefined ? { challenge: request.challenge } : {}),
    ...(request.domain !== undefined ? { domain: request.domain } : {}),
  });
}
