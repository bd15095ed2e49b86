import { invalidInput } from '../../errors';
import { envelopeJwtCredential, isJwtCredential, isJwtPresentation, issueJwtCredential, verifyJwtCredential, verifyJwtPresentation } from '../../vc/jwt';
import type { JsonObject, ProofVerification, VcProblem } from '../../vc/ports';
import type { FormatVerification, VerifyContext, W3cCredentialFormat, W3cIssueRequest } from '../format';
import { BITSTRING_STATUS } from './bitstring-status';
import { resolverOf } from './embedded-proof';
import { jwtVcJsonOid4vci } from './w3c-oid4vci';

const ID = 'vc+jwt';

function asFormatVerification(r: ProofVerification, document: JsonObject | undefined): FormatVerification {
  return {
    verified: r.verified,
    problems: r.errors as VcProblem[],
    // The JWT's key is bound to its issuer (or holder) while it is opened (VC-JOSE-COSE key binding).
    issuerBound: true,
    ...(r.suite !== undefined ? { suite: r.suite } : {}),
    ...(r.verificationMethod !== undefined ? { verificationMethod: r.verificationMethod } : {}),
    ...(document !== undefined ? { credential: document } : {}),
  };
}

/**
 * JWT VCs as a format: VC-JOSE-COSE `application/vc+jwt` for VCDM 2.0 and VC-JWT for VCDM 1.1,
 * bare or in an EnvelopedVerifiableCredential, over src/vc/jwt. The signature encloses the
 * credential, so it has no `read`: nothing of it is trusted before it is opened. Issued in the
 * envelope the VC-API answers with; offered to wallets as `jwt_vc_json`.
 */
export const vcJwt: W3cCredentialFormat = {
  id: ID,
  title: 'JWT VC (VC-JOSE-COSE vc+jwt, VC-JWT 1.1)',
  oid4vciFormat: 'jwt_vc_json',
  oid4vci: jwtVcJsonOid4vci(ID),
  vcApi: {
    suite: 'vc+jwt',
    // EdDSA, ES256 or ES384 by the key.
    keyTypes: ['Ed25519', 'P-256', 'P-384'],
    proofOptions: false,
    statusListSuite: (keyType) => (keyType === 'Ed25519' ? 'eddsa-rdfc-2022' : 'ecdsa-rdfc-2019'),
  },
  detect: (input) => isJwtCredential(input),
  async issue(request: W3cIssueRequest): Promise<JsonObject> {
    for (const k of ['created', 'challenge', 'domain'] as const) {
      if (request.options?.[k] !== undefined) throw invalidInput(`options.${k} does not apply to vc+jwt issuers`, [{ field: `options.${k}`, message: 'not applicable to vc+jwt' }]);
    }
    return envelopeJwtCredential(await issueJwtCredential(request.credential, request.signer));
  },
  async verify(input: unknown, context: VerifyContext): Promise<FormatVerification> {
    if (typeof input !== 'string' && !isJwtCredential(input)) return { verified: false, issuerBound: false, problems: [{ type: 'PARSING_ERROR', title: 'not a JWT credential' }] };
    const r = await verifyJwtCredential(input as string | JsonObject, {
      resolver: resolverOf(context, ID),
      expectedProofPurpose: context.purpose ?? 'assertionMethod',
      ...(context.expectedController !== undefined ? { expectedController: context.expectedController } : {}),
    });
    return asFormatVerification(r, r.credential);
  },
  status: BITSTRING_STATUS,
  presentation: {
    detect: (input) => isJwtPresentation(input),
    async verify(input: unknown, context: VerifyContext): Promise<FormatVerification> {
      if (typeof input !== 'string' && !isJwtPresentation(input)) return { verified: false, issuerBound: false, problems: [{ type: 'PARSING_ERROR', title: 'not a JWT presentation' }] };
      const r = await verifyJwtPresentation(input as string | JsonObject, {
        resolver: resolverOf(context, ID),
        expectedProofPurpose: context.purpose ?? 'authentication',
        ...(context.challenge !== undefined ? { challenge: context.challenge } : {}),
        ...(context.domain !== undefined ? { domain: context.domain } : {}),
      });
      return asFormatVerification(r, r.presentation);
    },
  },
};
