import { type Static, Type } from '@sinclair/typebox';
import { EXAMPLE, JsonObject, booleanQuery, exampleA, header } from '../common';
import { operationGroup } from '../operation';
const op = operationGroup('A', 'Family A: verifier');

export const VerifyBody = Type.Object(
  {
    credentials: Type.Optional(Type.Unknown({ description: 'the credential (object); or give its QR cryptograph in `cryptograph`' })),
    verifyParams: Type.Optional(Type.Array(Type.String({ description: '<attribute>=<value>' }))),
    zkpCertificate: Type.Optional(JsonObject),
    holderProof: Type.Optional(Type.Union([Type.Object({ nonce: Type.String(), signature: Type.String() }), Type.Null()])),
    probeTemplate: Type.Optional(Type.String({ description: 'a probe face template, for a biometric match' })),
    cryptograph: Type.Optional(Type.String()),
  },
  { title: 'VerifyCredentialAInput', additionalProperties: true },
);

/**
 * The body part of VerificationService.verify's request. `credentials` stays unknown (the schema
 * admits any value; the service asks for the credential object, or a cryptograph, by its rules);
 * `zkpCertificate` is any JSON object (JsonObject's static type spells it `{}`); `verifierChallenge`
 * is one of the body's additional members, checked by the service for bbs-bulletproofs.
 */
export type VerifyCredentialABody = Omit<Static<typeof VerifyBody>, 'zkpCertificate'> & { zkpCertificate?: Record<string, unknown>; verifierChallenge?: unknown };

const Result = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({ isVCValid: Type.String(), isIssuerDIDValid: Type.String(), biometricMatchScore: Type.Unknown(), zkpMessage: Type.Unknown() }, { additionalProperties: true }),
  message: Type.String(),
  status: Type.Integer(),
});

export const verifyCredentialA = op('post', '/verifier/verify', 'verifyCredentialA', {
  summary: 'Verify a credential (optionally with ZKP validation or a face match)',
  description:
    'An invalid credential is a result, not an error: 200 with success false. The multipart variant carries this JSON in a `request` field and a `selfiePhoto` file.',
  scopes: ['verifier'],
  headers: [
    header('publicKey', 'the holder’s Ed25519 public key (base64)', EXAMPLE.edPublicKey, 200),
    header('userSignature', 'the holder’s signature from issuance; optional when the body has a holderProof', EXAMPLE.signatureHex, 200, false),
  ],
  query: [booleanQuery('zkpValidation', 'check zkpCertificate instead of verifyParams')],
  body: { schema: VerifyBody, example: { credentials: { id: 'EmployeeBadge:1:1b4e28ba-2fa1-11d2-883f-0016d3cca427' }, verifyParams: [] } },
  responses: {
    200: {
      description: 'the verification result',
      schema: Result,
      example: exampleA({ isVCValid: 'Success', isIssuerDIDValid: 'Success', biometricMatchScore: 'No Check Performed', zkpMessage: null }, 200, 'User is valid, issuer DID is valid and the credential is valid'),
    },
  },
  rateLimited: true,
});
