import { discloseOnly, FAMILY_B_PROOF_TYPE, type FamilyBCredentialInput, signFamilyBCredential } from '../../domain/credentials/family-b-credential';
import type { JsonObject } from '../../vc/ports';
import type { CredentialFormat } from '../format';
import { BITSTRING_STATUS } from './bitstring-status';
import { embeddedPresentation, hasProof, verifyEmbedded } from './embedded-proof';

export interface FamilyBIssueRequest {
  readonly credential: FamilyBCredentialInput;
  /** The issuer's secp256k1 private key, as KeyCustody hands it to the signing callback; never kept. */
  readonly privateKey: Uint8Array;
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The interface reference's Family B credential: EcdsaSecp256k1Signature2019 in the seed's
 * selective-disclosure profile (the signature covers salted digests of each subject value). A thin
 * adapter over src/domain/credentials/family-b-credential (issue, derive = disclose only some
 * attributes) and src/vc/proofs (verify: signature, disclosures, the exact issued members). It
 * also claims the seed's EcdsaSecp256k1Signature2019 status list credentials, which Family B
 * publishes and the same verifier checks. The ledger anchor is Family B's own verify route's
 * check (src/services/family-b), not this format's: a format knows only the credential.
 */
export const familyB: CredentialFormat<FamilyBIssueRequest, JsonObject> = {
  id: 'family-b',
  title: 'Family B (EcdsaSecp256k1Signature2019, selective disclosure)',
  detect: (input) => hasProof(input, (p) => p['type'] === FAMILY_B_PROOF_TYPE),
  read: (input) => (isObject(input) ? input : undefined),
  async issue({ credential, privateKey }: FamilyBIssueRequest): Promise<JsonObject> {
    return signFamilyBCredential(credential, privateKey);
  },
  verify: (input, context) => verifyEmbedded(input, context, 'family-b'),
  // VC-API presentations signed with the same proof type (verifyProof says what it accepts of them).
  presentation: embeddedPresentation('family-b', (p) => p['type'] === FAMILY_B_PROOF_TYPE),
  async derive(credential: JsonObject, attributes: readonly string[]): Promise<JsonObject> {
    return discloseOnly(credential, attributes);
  },
  status: BITSTRING_STATUS,
};
