import { type Static, Type } from '@sinclair/typebox';
import { EXAMPLE, JsonObject, pathParam } from '../common';
import { operationGroup } from '../operation';

const TAG = 'Family B: credentials';
const op = operationGroup('B', TAG);

export const IssueBody = Type.Object(
  {
    templateId: Type.String({ description: 'a live template of this tenant' }),
    credentialSubject: Type.Object({}, { additionalProperties: true, description: 'one value per template attribute; `id` (the holder DID) optional' }),
    holder: Type.Optional(Type.String({ description: 'the holder DID (or give credentialSubject.id)' })),
  },
  { title: 'IssueCredentialInput' },
);
/** The input of FamilyBCredentialsService.issue. */
export type IssueInput = Static<typeof IssueBody>;

export const VerifyBody = Type.Object({ credential: JsonObject }, { title: 'VerifyCredentialInput' });
export type VerifyInput = Static<typeof VerifyBody>;

const credentialId = 'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6';
const credentialExample = {
  '@context': ['https://www.w3.org/2018/credentials/v1'],
  id: credentialId,
  type: ['VerifiableCredential', 'Employee badge'],
  issuer: EXAMPLE.fbDid,
  issuanceDate: EXAMPLE.timestamp,
  expirationDate: '2027-01-01T00:00:00.000Z',
  credentialSubject: { id: 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK', name: 'Grace Hopper', birthDate: '1990-12-09' },
  proof: { type: 'EcdsaSecp256k1Signature2019', created: EXAMPLE.timestamp, proofPurpose: 'assertionMethod', jws: 'eyJhbGciOiJFUzI1NksiLCJiNjQiOmZhbHNlLCJjcml0IjpbImI2NCJdfQ..c2ln' },
};

const Check = Type.Object({ check: Type.String(), ok: Type.Boolean(), detail: Type.Optional(Type.String()) });
const Anchor = Type.Object({
  logId: Type.String(),
  leafIndex: Type.Integer(),
  treeSize: Type.Integer(),
  entryHash: Type.String(),
  inclusionProof: Type.Array(Type.String()),
  checkpoint: Type.String(),
  logPublicKey: Type.String(),
});
const checks = [{ check: 'format', ok: true }, { check: 'signature', ok: true }, { check: 'ledger', ok: true }, { check: 'status', ok: true }, { check: 'expiry', ok: true }];

export const issueCredential = op('post', '/credentials', 'issueCredential', {
  summary: 'Issue a credential from a template',
  scopes: ['issuer'],
  body: { schema: IssueBody, example: { templateId: 'a3bb189e-8bf9-3888-9912-ace4e6543002', credentialSubject: { name: 'Grace Hopper', birthDate: '1990-12-09' } } },
  responses: { 201: { description: 'the signed credential, anchored in the issuer log', schema: JsonObject, example: credentialExample } },
  idempotent: true,
});

export const verifyCredential = op('post', '/credentials/verify', 'verifyCredential', {
  summary: 'Verify a credential (signature, ledger anchor, status, expiry)',
  description: 'A credential that fails a check is a 400 whose body names the failed checks.',
  scopes: ['verifier', 'issuer', 'holder'],
  body: { schema: VerifyBody, example: { credential: credentialExample } },
  responses: {
    200: { description: 'every check passed', schema: Type.Object({ verified: Type.Literal(true), checks: Type.Array(Check), anchor: Type.Optional(Anchor) }), example: { verified: true, checks } },
    400: {
      description: 'a check failed (`VERIFICATION_FAILED`), or the input is invalid (Family B error)',
      schema: Type.Object({ error: Type.String(), code: Type.String(), checks: Type.Optional(Type.Array(Check)), anchor: Type.Optional(Anchor), details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))) }),
      example: { error: 'Verification failed: status', code: 'VERIFICATION_FAILED', checks: checks.map((c) => (c.check === 'status' ? { ...c, ok: false } : c)) },
    },
  },
  rateLimited: true,
});

const id = pathParam('credentialId', 'the credential id', credentialId);

export const getCredential = op('get', '/credentials/:credentialId', 'getCredential', {
  summary: 'Fetch an issued credential',
  scopes: ['issuer', 'holder'],
  pathParams: [id],
  responses: {
    200: {
      description: 'the credential exactly as issued; its status is in the `Credential-Status` (and, once revoked, `Credential-Revoked-At`) header, not in the signed body',
      schema: JsonObject,
      example: credentialExample,
      headers: ['Credential-Status', 'Credential-Revoked-At'],
    },
  },
  errors: [404],
});

export const revokeCredential = op('delete', '/credentials/:credentialId', 'revokeCredential', {
  summary: 'Revoke a credential (status list bit set)',
  scopes: ['issuer'],
  pathParams: [id],
  responses: {
    200: {
      description: 'revoked',
      schema: Type.Object({ id: Type.String(), status: Type.Literal('revoked'), revokedAt: Type.String({ format: 'date-time' }) }),
      example: { id: credentialId, status: 'revoked', revokedAt: EXAMPLE.timestamp },
    },
  },
  errors: [404],
});
