import { Type } from '@sinclair/typebox';
import { SCHEMA_REFERENCE_PATTERN } from '../../domain/schemas/schema-request';
import { EXAMPLE, JsonObject, envelopeA, exampleA, header } from '../common';
import { operationGroup } from '../operation';

const TAG = 'Family A: user';
const op = operationGroup('A', TAG);
const HOLDER = ['holder', 'issuer'] as const;
const privateKey = header('privateKey', 'the holder’s Ed25519 private key (base64); used for this call only', EXAMPLE.edPrivateKey, 200);
const KeyPair = Type.Object({ privateKey: Type.String(), publicKey: Type.String() });

export const generateKeyPairA = op('get', '/user/generateKeyPair', 'userGenerateKeyPair', {
  summary: 'Generate an Ed25519 key pair (not stored)',
  scopes: HOLDER,
  responses: { 200: { description: 'the key pair (base64)', schema: envelopeA(KeyPair), example: exampleA({ privateKey: EXAMPLE.edPrivateKey, publicKey: EXAMPLE.edPublicKey }, 200) } },
});

export const userDid = op('get', '/user/did', 'userDid', {
  summary: 'The user DID of a public key (created on first use)',
  scopes: HOLDER,
  headers: [header('publicKey', 'the holder’s Ed25519 public key (base64)', EXAMPLE.edPublicKey, 4096)],
  responses: { 200: { description: 'the user DID', schema: envelopeA(Type.String()), example: exampleA(EXAMPLE.faDid, 200) } },
});

export const userSign = op('post', '/user/sign', 'userSign', {
  summary: 'Sign the holder’s consent to an issuance (the userSignature header of issue calls)',
  scopes: HOLDER,
  headers: [privateKey],
  query: [
    { name: 'issuerDID', description: 'the issuer the consent is for', example: EXAMPLE.faDid, required: true, schema: Type.String({ minLength: 1, maxLength: 512 }) },
    {
      name: 'schemaName',
      description: 'binds the consent to one schema too (not in the reference)',
      example: 'EmployeeBadge:1',
      schema: Type.String({ pattern: SCHEMA_REFERENCE_PATTERN.source, maxLength: 138, description: 'a schema name, optionally with :<version>' }),
    },
  ],
  body: {
    schema: Type.Object({ payload: Type.Unknown({ description: 'an object holding credentialSubject (id = the user DID, plus attributes), or a full credential' }) }, { title: 'UserSignInput' }),
    example: { payload: { credentialSubject: { id: EXAMPLE.faDid, name: 'Alice', email: 'alice@example.com' } } },
  },
  responses: {
    200: {
      description: 'the signature (hex; capital-S `Signature` as in the reference)',
      schema: Type.Object({ success: Type.Literal(true), Signature: Type.String(), status: Type.Integer() }),
      example: { success: true, Signature: EXAMPLE.signatureHex, status: 200 },
    },
  },
});

export const holderProof = op('post', '/user/holderProof', 'userHolderProof', {
  summary: 'A purpose-bound holder proof: a verification challenge (with nonce) or a revocation',
  scopes: HOLDER,
  headers: [privateKey],
  body: {
    schema: Type.Object(
      { credentialId: Type.String(), purpose: Type.Optional(Type.String({ description: 'verify (default) or revoke' })), nonce: Type.Optional(Type.String({ description: 'the verifier’s challenge (verify only)' })) },
      { title: 'HolderProofInput' },
    ),
    example: { credentialId: 'EmployeeBadge:1:1b4e28ba-2fa1-11d2-883f-0016d3cca427', purpose: 'verify', nonce: 'n-0S6_WzA2Mj' },
  },
  responses: {
    200: { description: 'the proof (`Cache-Control: no-store`)', schema: envelopeA(Type.Object({ signature: Type.String() })), example: exampleA({ signature: EXAMPLE.signatureHex }, 200) },
  },
});

export const userDecrypt = op('post', '/user/decrypt', 'userDecrypt', {
  summary: 'Decrypt an encrypted credential’s subject with the holder’s key (a convenience; possible offline)',
  scopes: HOLDER,
  headers: [privateKey],
  body: { schema: Type.Object({ vc: JsonObject }, { title: 'DecryptInput' }), example: { vc: { id: 'EmployeeBadge:1:1b4e28ba-2fa1-11d2-883f-0016d3cca427', credentialSubject: [{ id: 'b64…' }] } } },
  responses: {
    200: { description: 'the plain subject', schema: envelopeA(Type.Object({ credentialSubject: JsonObject })), example: exampleA({ credentialSubject: { id: EXAMPLE.faDid, name: 'Alice' } }, 200) },
  },
  rateLimited: true,
});
