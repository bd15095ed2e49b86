import { createDocumentLoader, type DocumentLoader } from '../../domain/contexts';
import { buildUnsignedCredential, FAMILY_A_JSONLD_BASE, type FamilyACredentialInput, proofOptions, withCredentialStatus } from '../../domain/credentials/family-a-credential';
import { signEd25519Signature2018 } from '../../domain/proofs';
import type { JsonObject } from '../../vc/ports';
import type { CredentialFormat } from '../format';
import { embeddedPresentation, hasProof, verifyEmbedded } from './embedded-proof';

export interface FamilyAIssueRequest {
  readonly credential: FamilyACredentialInput;
  /** The issuer DID's Ed25519 seed, as KeyCustody hands it to the signing callback; never kept. */
  readonly seed: Uint8Array;
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
let loader: DocumentLoader | undefined;

/**
 * The interface reference's Family A credential (reference 2.4): Ed25519Signature2018 in the
 * seed's profile (`creator` + `vcVerificationMethod`, signed under a JSON-LD base, credentialStatus
 * `""` outside the proof). A thin adapter over src/domain/credentials/family-a-credential (issue,
 * as the Family A service signs) and src/vc/proofs (verify, whose seed-profiles.ts accepts only
 * the issued shape). It also claims plain Ed25519Signature2018 proofs, which the same verifier
 * checks: that is the suite the seed signs with, in either spelling.
 */
export const familyA: CredentialFormat<FamilyAIssueRequest, JsonObject> = {
  id: 'family-a',
  title: 'Family A (Ed25519Signature2018, interface reference 2.4)',
  detect: (input) => hasProof(input, (p) => p['type'] === 'Ed25519Signature2018'),
  read: (input) => (isObject(input) ? input : undefined),
  async issue({ credential, seed }: FamilyAIssueRequest): Promise<JsonObject> {
    loader ??= createDocumentLoader();
    const unsigned = buildUnsignedCredential(credential);
    const signed = await signEd25519Signature2018(unsigned, { seed, proof: proofOptions(credential.issuer, credential.issuanceDate), documentLoader: loader, base: FAMILY_A_JSONLD_BASE });
    return withCredentialStatus(signed);
  },
  verify: (input, context) => verifyEmbedded(input, context, 'family-a'),
  // VC-API presentations signed with the same proof type (verifyProof says what it accepts of them).
  presentation: embeddedPresentation('family-a', (p) => p['type'] === 'Ed25519Signature2018'),
};
