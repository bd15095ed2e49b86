import { type Static, Type } from '@sinclair/typebox';
import { EXAMPLE, JsonObject, pathParam } from '../common';
import { operationGroup } from '../operation';

const TAG = 'Family B: presentations, signatures, ZKP tokens';
const op = operationGroup('B', TAG);
const VERIFIERS = ['verifier', 'issuer', 'holder'] as const;
const credentialId = 'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6';
const holderDid = 'did:credgate:local:zQ3shZc2QzApp2oymGvQbzP8eKheVshBHbU4ZYjeXqwSKEn6N';
const Shared = Type.Record(Type.String(), Type.Array(Type.String()), { description: 'credential id -> names of the attributes to disclose' });

const vpExample = {
  '@context': ['https://www.w3.org/2018/credentials/v1'],
  type: ['VerifiablePresentation'],
  verifiableCredential: [{ id: credentialId }],
  holder: holderDid,
  presentationAttributes: { [credentialId]: ['name'] },
  issuanceDate: EXAMPLE.timestamp,
  proof: { type: 'EcdsaSecp256k1Signature2019', created: EXAMPLE.timestamp, verificationMethod: `${holderDid}#keys-1`, signatureValue: EXAMPLE.signatureHex },
};

export const CreatePresentationBody = Type.Object(
  {
    holderDID: Type.String(),
    sharedAttributes: Shared,
    credentialIds: Type.Optional(Type.Array(Type.String(), { description: 'ids of credentials this tenant issued' })),
    credentials: Type.Optional(Type.Array(JsonObject, { description: 'or the credentials themselves' })),
    challenge: Type.Optional(Type.String({ description: "the verifier's nonce" })),
    domain: Type.Optional(Type.String()),
    holderPrivateKey: Type.Optional(Type.String({ description: 'hex; only when the service does not hold the holder key' })),
  },
  { title: 'CreatePresentationInput' },
);
/**
 * The input of PresentationsService.create. `sharedAttributes` is wider than the body schema's
 * map of name lists: GraphQL carries it in a JSON scalar nobody checked, so the service checks each
 * list it reads (the same rule and message through both transports).
 */
export type CreatePresentationInput = Omit<Static<typeof CreatePresentationBody>, 'sharedAttributes'> & { sharedAttributes: Record<string, unknown> };

export const VerifyPresentationBody = Type.Object(
  {
    vpToken: JsonObject,
    sharedAttributes: Shared,
    holderDID: Type.String(),
    holderPublicKey: Type.String({ description: 'hex secp256k1 public key of holderDID' }),
    challenge: Type.Optional(Type.String()),
    domain: Type.Optional(Type.String()),
  },
  { title: 'VerifyPresentationInput' },
);
/**
 * The input of PresentationsService.verify (`sharedAttributes` wider for the same reason as
 * create's; `vpToken` is any JSON object, which JsonObject's static type spells `{}`).
 */
export type VerifyPresentationInput = Omit<Static<typeof VerifyPresentationBody>, 'sharedAttributes' | 'vpToken'> & { sharedAttributes: Record<string, unknown>; vpToken: Record<string, unknown> };

export const createVp = op('post', '/create-vp', 'createVp', {
  summary: 'Create a signed presentation disclosing chosen attributes',
  scopes: ['holder'],
  body: {
    schema: CreatePresentationBody,
    example: { holderDID: holderDid, credentialIds: [credentialId], sharedAttributes: { [credentialId]: ['name'] }, challenge: 'n-0S6_WzA2Mj' },
  },
  responses: { 200: { description: 'the presentation', schema: Type.Object({ vpToken: JsonObject }), example: { vpToken: vpExample } } },
  errors: [404],
  idempotent: true,
});

export const verifyVp = op('post', '/verify-vp', 'verifyVp', {
  summary: 'Verify a presentation and the credentials it carries',
  scopes: VERIFIERS,
  body: {
    schema: VerifyPresentationBody,
    example: { vpToken: vpExample, sharedAttributes: { [credentialId]: ['name'] }, holderDID: holderDid, holderPublicKey: EXAMPLE.secpPublicKey, challenge: 'n-0S6_WzA2Mj' },
  },
  responses: { 200: { description: 'verified', schema: Type.Object({ message: Type.String() }), example: { message: 'VP and attributes verified' } } },
  rateLimited: true,
});

const data = { hello: 'world' };

export const CreateSignatureBody = Type.Object(
  { data: Type.Unknown({ description: 'any JSON value' }), privateKey: Type.String({ description: 'hex secp256k1 private key; used for this call only' }) },
  { title: 'CreateSignatureInput' },
);
/** The input of SignaturesService.create. */
export type CreateSignatureInput = Static<typeof CreateSignatureBody>;

export const VerifySignatureBody = Type.Object({ signature: Type.String(), data: Type.Unknown(), publicKey: Type.String() }, { title: 'VerifySignatureInput' });
/** The input of SignaturesService.verify. */
export type VerifySignatureInput = Static<typeof VerifySignatureBody>;

export const createSignature = op('post', '/signature/create', 'createSignature', {
  summary: 'Sign data (secp256k1 ECDSA over SHA-256 of its RFC 8785 canonical JSON, or of a string itself)',
  scopes: ['holder', 'issuer'],
  body: {
    schema: CreateSignatureBody,
    example: { data, privateKey: EXAMPLE.secpPrivateKey },
  },
  responses: { 200: { description: 'the signature (hex r||s)', schema: Type.Object({ signature: Type.String() }), example: { signature: EXAMPLE.signatureHex } } },
});

export const verifySignature = op('post', '/signature/verify', 'verifySignature', {
  summary: 'Verify a data signature (400 VERIFICATION_FAILED when invalid)',
  scopes: VERIFIERS,
  body: {
    schema: VerifySignatureBody,
    example: { signature: EXAMPLE.signatureHex, data, publicKey: EXAMPLE.secpPublicKey },
  },
  responses: { 200: { description: 'valid', schema: Type.Object({ valid: Type.Literal(true) }), example: { valid: true } } },
  rateLimited: true,
});

const zkpData = { condition: { age: 18 }, conditionMet: true, calculatedAge: 35 };
/** Issue 18: the additive selector; `attestation` (the default) is the issuer-signed outcome, `bbs-bulletproofs` a zero-knowledge proof. */
const ProofSystemField = Type.Union([Type.Literal('attestation'), Type.Literal('bbs-bulletproofs')], { description: 'attestation (default) or bbs-bulletproofs (zero-knowledge)' });
const VerifierChallengeField = Type.Object(
  { verifierId: Type.String({ minLength: 1, maxLength: 512 }), nonce: Type.String({ minLength: 16, maxLength: 256 }) },
  { description: 'bbs-bulletproofs only: the verifier and its nonce the proof is bound to', additionalProperties: false },
);
const ZkpToken = Type.Object({ zkpToken: Type.String(), zkpData: JsonObject, publicKey: Type.String() }, { additionalProperties: true });

export const CreateZkpTokenBody = Type.Object(
  {
    credentialId: Type.Optional(Type.String()),
    credential: Type.Optional(JsonObject),
    attribute: Type.Optional(Type.String({ description: 'the date attribute (default: the template’s date attribute)' })),
    condition: Type.Object({ age: Type.Integer() }, { additionalProperties: true }),
    proofSystem: Type.Optional(ProofSystemField),
    verifierChallenge: Type.Optional(VerifierChallengeField),
    pseudonym: Type.Optional(Type.Boolean({ description: 'bbs-bulletproofs: also prove a per-verifier pseudonym of the credential' })),
  },
  { title: 'CreateZkpTokenInput' },
);
/**
 * The input of ZkpTokensService.create. `proofSystem` is any string here: GraphQL carries it as a
 * String, so the service names the allowed values in its own 400 (parseProofSystem), alike for
 * both transports; `credential` is any JSON object (JsonObject's static type spells it `{}`).
 */
export type CreateZkpTokenInput = Omit<Static<typeof CreateZkpTokenBody>, 'proofSystem' | 'credential'> & { proofSystem?: string; credential?: Record<string, unknown> };

export const VerifyZkpTokenBody = Type.Object(
  {
    zkpToken: Type.String(),
    zkpData: JsonObject,
    publicKey: Type.String(),
    holderDID: Type.Optional(Type.String({ description: 'bind the check to this holder' })),
    proofSystem: Type.Optional(ProofSystemField),
    verifierChallenge: Type.Optional(VerifierChallengeField),
  },
  { title: 'VerifyZkpTokenInput' },
);
/** The input of ZkpTokensService.verify (`proofSystem` and `zkpData` wider for the same reasons as create's). */
export type VerifyZkpTokenInput = Omit<Static<typeof VerifyZkpTokenBody>, 'proofSystem' | 'zkpData'> & { proofSystem?: string; zkpData: Record<string, unknown> };

export const createZkpToken = op('post', '/createZkpToken', 'createZkpToken', {
  summary: "Create a signed age-condition token from a credential's date attribute",
  scopes: ['issuer'],
  body: {
    schema: CreateZkpTokenBody,
    example: { credentialId, condition: { age: 18 } },
  },
  responses: { 200: { description: 'the token', schema: ZkpToken, example: { zkpToken: EXAMPLE.signatureHex, zkpData, publicKey: EXAMPLE.secpPublicKey } } },
  errors: [404],
  idempotent: true,
});

export const verifyZkpToken = op('post', '/verifyZkpToken', 'verifyZkpToken', {
  summary: 'Verify a ZKP token',
  scopes: VERIFIERS,
  body: {
    schema: VerifyZkpTokenBody,
    example: { zkpToken: EXAMPLE.signatureHex, zkpData, publicKey: EXAMPLE.secpPublicKey },
  },
  responses: {
    200: {
      description: 'the result',
      schema: Type.Object({
        success: Type.Boolean(),
        conditionMet: Type.Boolean(),
        calculatedAge: Type.Union([Type.Number(), Type.Null()], { description: 'null for a zero-knowledge token (bbs-bulletproofs): the age is not disclosed' }),
        message: Type.String(),
      }),
      example: { success: true, conditionMet: true, calculatedAge: 35, message: 'ZKP token verified' },
    },
  },
  rateLimited: true,
});

/** Issue 18: the issuer's BBS public key, the one zero-knowledge tokens and certificates verify under. */
export const zkIssuerKey = op('get', '/zk/issuer-key/:did', 'zkIssuerKey', {
  summary: "An issuer DID's BBS public key (BLS12-381 G2), for verifying zero-knowledge proofs offline",
  scopes: VERIFIERS,
  pathParams: [pathParam('did', 'the issuer DID', 'did:credgate:local:46jTL4PmQv1nAsGTE8UmSf')],
  responses: {
    200: {
      description: 'the key document',
      schema: Type.Object({ issuer: Type.String(), type: Type.Literal('Bls12381G2'), publicKeyHex: Type.String(), publicKeyBase64: Type.String(), proofSystem: Type.Literal('bbs-bulletproofs') }),
      example: { issuer: 'did:credgate:local:46jTL4PmQv1nAsGTE8UmSf', type: 'Bls12381G2', publicKeyHex: 'a1'.repeat(96), publicKeyBase64: 'oaGh', proofSystem: 'bbs-bulletproofs' },
    },
  },
  errors: [404],
});

export const ZkHolderSignatureBody = Type.Object({ credentialId: Type.String({ description: 'a credential of the holder the API key is bound to' }) }, { title: 'ZkHolderSignatureInput' });
/** The input of ZkpTokensService.holderSignature. */
export type ZkHolderSignatureInput = Static<typeof ZkHolderSignatureBody>;

/**
 * Issue 18: a non-custodial holder's BBS signature over its own credential (valid through today,
 * UTC), the input of the SDK's local proveZkAge. Holder-bound keys only.
 */
export const zkHolderSignature = op('post', '/zk/holder-signature', 'zkHolderSignature', {
  summary: "The issuer's BBS signature over the caller's own credential, for proving range predicates locally (SDK proveZkAge)",
  scopes: ['holder'],
  body: {
    schema: ZkHolderSignatureBody,
    example: { credentialId },
  },
  responses: {
    200: {
      description: 'the signature, the signed values and the issuer key (the SDK ZkAgeCredential)',
      schema: Type.Object({
        issuer: Type.String(),
        issuerPublicKey: Type.String({ description: 'BLS12-381 G2, hex' }),
        signature: Type.String({ description: 'BBS signature, base64' }),
        credentialId: Type.String(),
        validUntilDay: Type.Integer({ description: 'UTC day (days since 1970-01-01) through which it proves' }),
        attributes: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), value: Type.Unknown() })),
      }),
      example: { issuer: 'did:credgate:local:46jTL4PmQv1nAsGTE8UmSf', issuerPublicKey: 'a1'.repeat(96), signature: 'oaGh', credentialId, validUntilDay: 20_784, attributes: [{ name: 'birthDate', type: 'date', value: '1990-12-09' }] },
    },
  },
  errors: [403, 404],
});
