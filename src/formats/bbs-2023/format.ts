import { invalidInput } from '../../errors';
import type { JsonObject } from '../../vc/ports';
import { BITSTRING_STATUS } from '../adapters/bitstring-status';
import { hasProof } from '../adapters/embedded-proof';
import type { FormatVerification, W3cCredentialFormat, W3cIssueRequest } from '../format';
import { bbs2023Engine, type Bbs2023Engine } from './engine';

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const claims = (proof: JsonObject): boolean => proof['type'] === 'DataIntegrityProof' && proof['cryptosuite'] === 'bbs-2023';

/**
 * What the issuer always discloses: who issued it and when it is valid, so a verifier can judge
 * the issuer binding and the validity period of every derivation. Everything else — every claim
 * about the subject — is the holder's to select.
 */
export const DEFAULT_MANDATORY_POINTERS = ['/issuer', '/validFrom', '/validUntil', '/issuanceDate', '/expirationDate', '/credentialStatus', '/type'] as const;

/** The mandatory pointers that select something in `credential` (bbs-2023 refuses a pointer to nothing). */
export function mandatoryPointersFor(credential: JsonObject): string[] {
  return DEFAULT_MANDATORY_POINTERS.filter((p) => credential[p.slice(1)] !== undefined);
}

/**
 * W3C bbs-2023 as a registry format (habit 13): the issuer's base proof goes to the holder, who
 * derives a credential disclosing only chosen claims; verifiers see derived proofs only. Status entries, when present, are mandatory (always disclosed) so revocation
 * still reaches every derivation.
 */
export function bbs2023Format(engine: Bbs2023Engine = bbs2023Engine): W3cCredentialFormat {
  return {
    id: 'di:bbs-2023',
    title: 'Data Integrity bbs-2023 (BBS selective disclosure, unlinkable)',
    // Not offered over OpenID4VCI yet: a wallet receiving ldp_vc expects a verifiable proof, and a
    // base proof is not one (the holder must derive first); see docs/API.md.
    vcApi: {
      suite: 'bbs-2023',
      keyTypes: ['Bls12381G2'],
      // bbs-2023 drops `created`, and challenge/domain bind a presentation, not a base proof.
      proofOptions: false,
      statusListSuite: () => {
        // A status list is fetched and verified as a whole by any verifier: a BBS base proof is not
        // verifiable, so a bbs-2023 instance does not publish lists (refused before any slot is spent).
        throw invalidInput('bbs-2023 issuer instances do not publish status lists', [{ field: 'options.credentialStatus', message: 'not supported by bbs-2023 issuers' }]);
      },
    },
    detect: (input) => hasProof(input, claims),
    read: (input) => (isObject(input) ? input : undefined),
    async issue(request: W3cIssueRequest): Promise<JsonObject> {
      const key = request.signer.bbsKey;
      if (request.signer.keyType !== 'Bls12381G2' || key === undefined) throw invalidInput('bbs-2023 signs with BLS12-381 G2 keys only', [{ field: 'keyType', message: 'must be Bls12381G2' }]);
      // The issuer's own choice adds to the defaults: issuer, type, validity and status stay disclosed.
      const mandatory = new Set([...mandatoryPointersFor(request.credential), ...(request.mandatoryPointers ?? [])]);
      return engine.sign(request.credential, key, [...mandatory]);
    },
    async verify(input, context): Promise<FormatVerification> {
      const r = await engine.verify(input);
      if (!r.verified) return { verified: false, issuerBound: false, suite: 'DataIntegrityProof/bbs-2023', problems: [{ type: 'PROOF_VERIFICATION_ERROR', title: 'The proof does not verify', detail: r.reason }] };
      const controllerOk = context.expectedController === undefined || context.expectedController === r.controller;
      return {
        verified: controllerOk,
        issuerBound: false,
        suite: 'DataIntegrityProof/bbs-2023',
        verificationMethod: r.verificationMethod,
        controllers: [r.controller],
        credential: input as JsonObject,
        problems: controllerOk ? [] : [{ type: 'PROOF_VERIFICATION_ERROR', title: 'The proof does not verify', detail: 'the key is not controlled by the expected controller' }],
      };
    },
    derive: (credential, pointers) => engine.derive(credential, pointers),
    status: BITSTRING_STATUS,
  };
}

export const bbs2023 = bbs2023Format();
