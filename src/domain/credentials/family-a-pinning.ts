import { FAMILY_A_CONTEXT } from './family-a-credential';

/** The members an issued Family A proof has, no more: anything else would be unsigned or re-interpret the signed part. */
const PROOF_MEMBERS = ['created', 'creator', 'jws', 'proofPurpose', 'type', 'vcVerificationMethod'] as const;

/**
 * Why a presented credential's JSON-LD framing differs from what this service signs, or undefined.
 *
 * The Ed25519Signature2018 proof covers RDF, not JSON: an appended context (inline or by URL) can
 * rename claims that expand through `@vocab` (swap `birthDate` and `issueDate`) and still produce
 * the signed RDF. So verification requires the exact context list the service issues, in order,
 * and a proof object with exactly the issued members (a proof-level `@context` would reframe the
 * proof options the same way). Checked before canonicalisation, which it also spares.
 */
export function framingProblem(credential: Readonly<Record<string, unknown>>): string | undefined {
  const ctx = credential['@context'];
  if (!Array.isArray(ctx) || ctx.length !== FAMILY_A_CONTEXT.length || ctx.some((c, i) => c !== FAMILY_A_CONTEXT[i])) {
    return `@context must be exactly ${JSON.stringify(FAMILY_A_CONTEXT)} (an unknown, extra or reordered context was given)`;
  }
  const proof = credential['proof'];
  if (proof !== null && typeof proof === 'object' && !Array.isArray(proof)) {
    const keys = Object.keys(proof).sort();
    if (keys.length !== PROOF_MEMBERS.length || keys.some((k, i) => k !== PROOF_MEMBERS[i])) return 'proof has unexpected or missing members';
    if ((proof as Record<string, unknown>)['proofPurpose'] !== 'assertionMethod') return 'proof purpose is not assertionMethod';
  }
  return undefined;
}
