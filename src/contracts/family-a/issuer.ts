import { type Static, Type } from '@sinclair/typebox';
import { EXAMPLE, JsonObject, booleanQuery, envelopeA, exampleA, header, pathParam } from '../common';
import { operationGroup } from '../operation';

const TAG = 'Family A: issuer';
const op = operationGroup('A', TAG);
const ISSUER = ['issuer'] as const;
const publicKey = header('publicKey', 'the holder’s Ed25519 public key (base64)', EXAMPLE.edPublicKey, 200);
const userSignature = header('userSignature', 'the holder’s consent (POST /user/sign), hex', EXAMPLE.signatureHex, 200);
const holderHeaders = [header('did', 'the holder’s user DID', EXAMPLE.faDid, 512), publicKey, userSignature];

/*
 * Shape only (types, required fields): schema names, attribute values and dependants are checked
 * by the service against the schema they name, with messages stating each rule.
 */
export const IssueBody = Type.Object(
  {
    schemaName: Type.String({ description: '<name>:<version>' }),
    isEncrypted: Type.Optional(Type.Boolean()),
    dependantVerifiableCredential: Type.Optional(Type.Array(Type.Unknown())),
    credentialSubject: Type.Object({}, { additionalProperties: true, description: 'one entry per schema attribute (numbers and dates as strings)' }),
    faceTemplate: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'a gallery face template to bind (from createTemplate)' })),
  },
  { title: 'IssueCredentialAInput' },
);
/**
 * What POST/PUT /issuer/verifiableCredential carry besides `vc`: the input issueRequestOf turns
 * into the service's IssueRequest. credentialSubject is any JSON object (JsonObject-like schemas
 * have the static type `{}`).
 */
export type IssueCredentialAInput = Omit<Static<typeof IssueBody>, 'credentialSubject'> & { credentialSubject: Record<string, unknown> };

export const ReissueBody = Type.Composite([IssueBody, Type.Object({ vc: JsonObject })], { title: 'ReissueCredentialAInput' });

const issueExample = { schemaName: 'EmployeeBadge:1', isEncrypted: false, dependantVerifiableCredential: [], credentialSubject: { name: 'Alice', email: 'alice@example.com', age: '30', birthDate: '1990-05-17' } };

const credential = {
  '@context': ['https://www.w3.org/2018/credentials/v1'],
  id: 'EmployeeBadge:1:1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  type: ['VerifiableCredential', 'EmployeeBadge'],
  version: 'EmployeeBadge:1',
  issuer: EXAMPLE.faDid,
  credentialSubject: [{ id: EXAMPLE.faDid, name: 'Alice' }],
  issuanceDate: EXAMPLE.timestamp,
  expirationDate: '2027-01-01T00:00:00.000Z',
  proof: { type: 'Ed25519Signature2018', creator: EXAMPLE.faDid, created: EXAMPLE.timestamp, proofPurpose: 'assertionMethod', vcVerificationMethod: `${EXAMPLE.faDid}#did-root-key`, jws: 'eyJhbGciOiJFZERTQSJ9..c2ln' },
};
const Issued = envelopeA(Type.Object({ verifiableCredential: JsonObject, userSignature: Type.String(), cryptograph: Type.Optional(Type.String()) }), true);
const issued = { 201: { description: 'the credential (or, with downloadCryptograph=true, the QR code as image/png)', schema: Issued, example: exampleA({ verifiableCredential: credential, userSignature: EXAMPLE.signatureHex }, 201, 'Verifiable Credential created and submited successfully') } };
const cryptographQuery = [booleanQuery('isCryptograph', 'also return a signed QR cryptograph'), booleanQuery('downloadCryptograph', 'answer the cryptograph as a PNG download')];

export const issuerDid = op('get', '/issuer/did', 'issuerDid', {
  summary: 'The tenant’s issuer DID (created on first use)',
  scopes: ISSUER,
  responses: { 200: { description: 'the issuer DID', schema: envelopeA(Type.String()), example: exampleA(EXAMPLE.faDid, 200) } },
});

export const deleteIssuerDid = op('delete', '/issuer/did/:did', 'deleteIssuerDid', {
  summary: 'Delete the issuer DID',
  scopes: ISSUER,
  pathParams: [pathParam('did', 'the issuer DID', EXAMPLE.faDid)],
  responses: { 200: { description: 'deleted', schema: envelopeA(Type.Literal(true), true), example: exampleA(true, 200, 'Issuer DID deleted successfully') } },
  errors: [400, 404],
});

export const issueCredentialA = op('post', '/issuer/verifiableCredential', 'issueCredentialA', {
  summary: 'Issue a credential against a schema, with the holder’s consent',
  scopes: ISSUER,
  headers: holderHeaders,
  query: cryptographQuery,
  body: { schema: IssueBody, example: issueExample },
  responses: issued,
  idempotent: true,
});

export const reissueCredentialA = op('put', '/issuer/verifiableCredential', 'reissueCredentialA', {
  summary: 'Re-issue a credential with new subject data (a new id; the old one is revoked)',
  scopes: ISSUER,
  headers: holderHeaders,
  query: cryptographQuery,
  body: { schema: ReissueBody, example: { ...issueExample, vc: credential } },
  responses: issued,
  errors: [404],
});

export const revokeCredentialA = op('delete', '/issuer/verifiableCredential', 'revokeCredentialA', {
  summary: 'Revoke a credential (issuer, or the holder with a revocation proof)',
  scopes: ['issuer', 'holder'],
  headers: [publicKey, userSignature],
  body: { schema: Type.Object({ vc: JsonObject }, { title: 'RevokeCredentialAInput' }), example: { vc: credential } },
  responses: {
    202: { description: 'revoked', schema: envelopeA(Type.Literal(true), true), example: exampleA(true, 202, `Verifiable Credential ${credential.id} has been revoked`) },
  },
  errors: [404],
});

export const CreateZkpBody = Type.Object(
  {
    credentials: JsonObject,
    verifyParams: Type.Optional(Type.Array(Type.String({ description: '<attribute>=<value>' }))),
    proofSystem: Type.Optional(Type.Union([Type.Literal('attestation'), Type.Literal('bbs-bulletproofs')], { description: 'attestation (default) or bbs-bulletproofs: a zero-knowledge proof of the conditions (issue 18)' })),
    verifierChallenge: Type.Optional(JsonObject),
  },
  { title: 'CreateZkpInput', additionalProperties: true },
);

/**
 * The input of ZkpService.create: GraphQL's shape, the conditions gathered in one object. The
 * values of conditions, verifyParams and the challenge are checked by the service against the
 * credential's schema (rules, not shape); `proofSystem` is any string because GraphQL carries it as
 * a String, so the service's 400 names the allowed values for both transports.
 */
export interface CreateZkpInput {
  readonly credentials: Record<string, unknown>;
  readonly conditions: Record<string, unknown>;
  readonly verifyParams?: readonly string[];
  readonly proofSystem?: string;
  readonly verifierChallenge?: Record<string, unknown>;
}

/** REST's body (checked against CreateZkpBody) as the service's input: every other top-level key is a condition. */
export function createZkpInputOf(body: Static<typeof CreateZkpBody>): CreateZkpInput {
  // The schema admits additional members (the conditions); its static type does not spell them.
  const { credentials, verifyParams, proofSystem, verifierChallenge, ...conditions } = body as Static<typeof CreateZkpBody> & Record<string, unknown>;
  return {
    credentials: credentials as Record<string, unknown>,
    conditions,
    ...(verifyParams !== undefined ? { verifyParams } : {}),
    ...(proofSystem !== undefined ? { proofSystem } : {}),
    ...(verifierChallenge !== undefined ? { verifierChallenge: verifierChallenge as Record<string, unknown> } : {}),
  };
}

export const createZkp = op('post', '/issuer/createZkp', 'createZkp', {
  summary: 'A signed ZKP certificate: conditions evaluated over a credential the issuer holds',
  description: 'Besides `credentials` and `verifyParams`, one condition per attribute: `{ "age": { "type": "number", "minimum": "18", "maximum": "99" } }` or `{ "birthDate": { "type": "date", "value": 18, "unit": "years" } }`.',
  scopes: ISSUER,
  body: {
    schema: CreateZkpBody,
    example: { credentials: credential, age: { type: 'number', minimum: '18', maximum: '99' }, verifyParams: ['name=Alice'] },
  },
  responses: {
    200: {
      description: 'the certificate',
      schema: envelopeA(Type.Object({ certificate: Type.Record(Type.String(), Type.Boolean()), userSignature: Type.String(), publicKey: Type.String() }, { additionalProperties: true })),
      example: exampleA({ certificate: { age: true, name: true }, userSignature: EXAMPLE.signatureHex, publicKey: EXAMPLE.edPublicKey }, 200),
    },
  },
  errors: [404],
  idempotent: true,
});
