import { AppError, invalidInput } from '../../errors';
import { addProof, DATA_INTEGRITY_SUITES } from '../../vc/proofs';
import type { DataIntegrityCryptosuite, JsonObject, SigningKeyType } from '../../vc/ports';
import type { W3cCredentialFormat, W3cIssueRequest } from '../format';
import { BITSTRING_STATUS } from './bitstring-status';
import { ldpVcOid4vci } from './w3c-oid4vci';
import { embeddedPresentation, hasProof, presentEmbedded, verifyEmbedded } from './embedded-proof';

type EmbeddedSuite = DataIntegrityCryptosuite | 'Ed25519Signature2020';

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The proofs a suite claims: DataIntegrityProof with its cryptosuite, or the Ed25519Signature2020 type. */
function claimsProof(suite: EmbeddedSuite): (proof: JsonObject) => boolean {
  const definition = DATA_INTEGRITY_SUITES.find((s) => (suite === 'Ed25519Signature2020' ? s.type === suite : s.cryptosuite === suite));
  if (!definition) throw new Error(`no Data Integrity suite ${suite}`);
  return (proof) => proof['type'] === definition.type && (definition.cryptosuite === undefined ? proof['cryptosuite'] === undefined : proof['cryptosuite'] === definition.cryptosuite);
}

/**
 * A Data Integrity suite (or Ed25519Signature2020) as a format: a thin adapter over src/vc/proofs,
 * whose addProof and verifyProof do the work. Offered to wallets as `ldp_vc`.
 */
function dataIntegrityFormat(id: string, suite: EmbeddedSuite, title: string, keyTypes: readonly SigningKeyType[]): W3cCredentialFormat {
  const claims = claimsProof(suite);
  return {
    id,
    title,
    oid4vciFormat: 'ldp_vc',
    oid4vci: ldpVcOid4vci,
    vcApi: { suite, keyTypes, proofOptions: true, statusListSuite: () => suite },
    detect: (input) => hasProof(input, claims),
    read: (input) => (isObject(input) ? input : undefined),
    async issue(request: W3cIssueRequest): Promise<JsonObject> {
      const options = request.options ?? {};
      try {
        return await addProof(request.credential, request.signer, {
          suite,
          proofPurpose: 'assertionMethod',
          ...(options.created !== undefined ? { created: options.created } : {}),
          ...(options.challenge !== undefined ? { challenge: options.challenge } : {}),
          ...(options.domain !== undefined ? { domain: options.domain } : {}),
        });
      } catch (e) {
        // A document the suite cannot canonicalise (an undefined term, a bad context) is the caller's mistake.
        if (e instanceof AppError) throw e;
        throw invalidInput(`the credential cannot be secured with ${suite}: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    verify: (input, context) => verifyEmbedded(input, context, id),
    present: (request) => presentEmbedded(suite, request),
    status: BITSTRING_STATUS,
    presentation: embeddedPresentation(id, claims),
  };
}

export const eddsaRdfc2022 = dataIntegrityFormat('di:eddsa-rdfc-2022', 'eddsa-rdfc-2022', 'Data Integrity eddsa-rdfc-2022', ['Ed25519']);
export const eddsaJcs2022 = dataIntegrityFormat('di:eddsa-jcs-2022', 'eddsa-jcs-2022', 'Data Integrity eddsa-jcs-2022', ['Ed25519']);
export const ecdsaRdfc2019 = dataIntegrityFormat('di:ecdsa-rdfc-2019', 'ecdsa-rdfc-2019', 'Data Integrity ecdsa-rdfc-2019', ['P-256', 'P-384']);
export const ed25519Signature2020 = dataIntegrityFormat('ed25519-signature-2020', 'Ed25519Signature2020', 'Ed25519Signature2020', ['Ed25519']);
