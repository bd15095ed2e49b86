import { type Static, Type } from '@sinclair/typebox';
import { JsonObject, pathParam } from './common';
import { operationGroup } from './operation';

/**
 * The W3C CCG VC-API (VCALM) routes. Documented under the default base path `/vc-api`
 * (CREDGATE_VC_API_BASE moves them all). Errors are RFC 9457 problem details.
 */
export const VC_API_DEFAULT_BASE = '/vc-api';
const op = operationGroup('problem', 'VC-API');
const p = (path: string) => `${VC_API_DEFAULT_BASE}${path}`;

const DID_KEY = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const ISSUER_ID = '4f3c2a1e-9b8d-4c7e-a6f5-1d2e3f4a5b6c';
const LIST_URL = `https://credgate.example${p('/status-lists/8d3b7e2a-5c41-4f0e-9a6b-2c7d1e0f3a94')}`;

/** Anything the caller passes as a credential or presentation: objects, or a compact JWT where the spec allows one. */
const Document = Type.Union([JsonObject, Type.String({ minLength: 1, maxLength: 1_000_000 })]);

export const IssueOptions = Type.Object(
  {
    created: Type.Optional(Type.String({ description: 'proof `created` (XML Schema dateTime); default now' })),
    challenge: Type.Optional(Type.String()),
    domain: Type.Optional(Type.String()),
    credentialId: Type.Optional(Type.String({ description: 'how /credentials/status refers to the credential when it has no `id`' })),
    credentialStatus: Type.Optional(
      Type.Union([JsonObject, Type.Array(JsonObject, { maxItems: 2 })], {
        description:
          '`{ type: "BitstringStatusListEntry", statusPurpose: "revocation" | "suspension" }` (or a list of them; statusPurpose defaults to revocation). Needs credential.id or options.credentialId. Without it the credential gets no status entry',
      }),
    ),
    mandatoryPointers: Type.Optional(Type.Array(Type.String(), { description: 'bbs-2023 instances: JSON pointers of claims every derivation must disclose (besides issuer, type, validity and status); other suites: 400' })),
  },
  { additionalProperties: true, description: 'unknown options are refused with 400' },
);

export const IssueBody = Type.Object({ credential: JsonObject, options: Type.Optional(IssueOptions) }, { title: 'VcApiIssueCredentialRequest' });
export type IssueBody = Static<typeof IssueBody>;

export const DeriveBody = Type.Object(
  {
    verifiableCredential: JsonObject,
    options: Type.Optional(
      Type.Object(
        { selectivePointers: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 512 }), { maxItems: 256, description: 'JSON pointers (RFC 6901) of the claims to disclose, besides the issuer\'s mandatory ones' })) },
        { additionalProperties: false },
      ),
    ),
  },
  { title: 'VcApiDeriveCredentialRequest' },
);
export type DeriveBody = Static<typeof DeriveBody>;

export const VerifyCredentialBody = Type.Object({ verifiableCredential: Document, options: Type.Optional(JsonObject) }, { title: 'VcApiVerifyCredentialRequest' });
export type VerifyCredentialBody = Static<typeof VerifyCredentialBody>;

export const VerifyPresentationBody = Type.Object(
  {
    verifiablePresentation: Type.Optional(Document),
    presentation: Type.Optional(JsonObject),
    options: Type.Optional(Type.Object({ challenge: Type.Optional(Type.String()), domain: Type.Optional(Type.String()) }, { additionalProperties: true })),
  },
  { title: 'VcApiVerifyPresentationRequest', description: '`verifiablePresentation` (with a proof), or `presentation` (verified without one)' },
);
export type VerifyPresentationBody = Static<typeof VerifyPresentationBody>;

export const UpdateStatusBody = Type.Object(
  {
    credentialId: Type.String({ minLength: 1, maxLength: 2048 }),
    credentialStatus: Type.Object({ type: Type.String(), statusPurpose: Type.String() }, { additionalProperties: true }),
    status: Type.Boolean({ description: 'true sets the status (revoked / suspended), false clears it (suspension only)' }),
  },
  { title: 'VcApiUpdateCredentialStatusRequest' },
);
export type UpdateStatusBody = Static<typeof UpdateStatusBody>;

export const CreateIssuerBody = Type.Object(
  {
    cryptosuite: Type.String({ description: 'eddsa-rdfc-2022, eddsa-jcs-2022, ecdsa-rdfc-2019, Ed25519Signature2020, vc+jwt or bbs-2023' }),
    keyType: Type.Optional(Type.String({ description: 'Ed25519, P-256 or P-384 (default: the first the suite takes)' })),
  },
  { title: 'VcApiCreateIssuerRequest' },
);
export type CreateIssuerBody = Static<typeof CreateIssuerBody>;

const Problem = Type.Object({ type: Type.String(), title: Type.String(), detail: Type.Optional(Type.String()) });
const VerificationResult = Type.Object(
  { verified: Type.Boolean(), checks: Type.Array(Type.String()), warnings: Type.Array(Problem), errors: Type.Array(Problem) },
  { title: 'VcApiVerificationResult' },
);
/** A failed verification: an RFC 9457 problem whose extension members are the verification result. */
const FailedVerification = Type.Object(
  { type: Type.String(), title: Type.String(), status: Type.Integer(), detail: Type.String(), verified: Type.Literal(false), checks: Type.Array(Type.String()), warnings: Type.Array(Problem), errors: Type.Array(Problem) },
  { title: 'VcApiFailedVerification' },
);
const IssuerView = Type.Object({
  id: Type.String(),
  issuer: Type.String({ description: 'the instance did:key' }),
  issueEndpoint: Type.String(),
  cryptosuite: Type.String(),
  keyType: Type.String(),
  default: Type.Boolean(),
});

const credentialExample = {
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
  id: 'urn:uuid:58172aac-d8ba-11ed-83dd-0b3aef56cc33',
  type: ['VerifiableCredential', 'ExampleAlumniCredential'],
  issuer: DID_KEY,
  validFrom: '2026-01-01T00:00:00Z',
  credentialSubject: { id: 'did:example:ebfeb1f712ebc6f1c276e12ec21', alumniOf: 'Example University' },
};
const { issuer: _issuer, ...unissued } = credentialExample;
const statusEntry = { id: `${LIST_URL}#94567`, type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: '94567', statusListCredential: LIST_URL };
const vcExample = {
  ...credentialExample,
  credentialStatus: statusEntry,
  proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', created: '2026-01-01T00:00:00Z', verificationMethod: `${DID_KEY}#${DID_KEY.slice(8)}`, proofPurpose: 'assertionMethod', proofValue: 'z3FXQjecWufY46yg5abdVZsXqLhxhueuSoZgNSARiKBk9czhSePTFehP8c3PGfb6a22gkfUKKBNwP8dhHZMoBpZ9e' },
};
const verified = { verified: true, checks: ['proof', 'validity', 'credentialStatus'], warnings: [], errors: [] };

const issueSpec = (summary: string, description: string) => ({
  summary,
  description,
  scopes: ['issuer'] as const,
  body: { schema: IssueBody, example: { credential: unissued, options: { credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' } } } },
  responses: { 201: { description: 'the secured credential (an EnvelopedVerifiableCredential for vc+jwt instances)', schema: Type.Object({ verifiableCredential: JsonObject }), example: { verifiableCredential: vcExample } } },
  errors: [404, 409],
});

export const vcIssueCredential = op('post', p('/credentials/issue'), 'vcApiIssueCredential', issueSpec('Issue a credential with the default issuer instance', "The tenant's default instance (did:key, Ed25519, eddsa-rdfc-2022) is created on first use."));

export const vcIssueWithInstance = op('post', p('/issuers/:issuerId/credentials/issue'), 'vcApiIssueWithInstance', {
  ...issueSpec('Issue a credential with an issuer instance', 'Same contract as /credentials/issue, signed by the named instance.'),
  pathParams: [pathParam('issuerId', 'an issuer instance of the tenant', ISSUER_ID)],
});

export const vcCreateIssuer = op('post', p('/issuers'), 'vcApiCreateIssuer', {
  summary: 'Create an issuer instance (a did:key whose key the service holds)',
  scopes: ['issuer'],
  body: { schema: CreateIssuerBody, example: { cryptosuite: 'ecdsa-rdfc-2019', keyType: 'P-256' } },
  responses: {
    201: {
      description: 'the instance',
      schema: IssuerView,
      example: { id: ISSUER_ID, issuer: 'did:key:zDnaerDaTF5BXEavCrfRZEk316dpbLsfPDZ3WJ5hRTPFU2169', issueEndpoint: p(`/issuers/${ISSUER_ID}/credentials/issue`), cryptosuite: 'ecdsa-rdfc-2019', keyType: 'P-256', default: false },
    },
  },
});

export const vcListIssuers = op('get', p('/issuers'), 'vcApiListIssuers', {
  summary: "The tenant's issuer instances (the default one is created on first listing, so its DID can be named as a credential's issuer)",
  scopes: ['issuer'],
  responses: { 200: { description: 'oldest first', schema: Type.Array(IssuerView), example: [] } },
});

export const vcDeriveCredential = op('post', p('/credentials/derive'), 'vcApiDeriveCredential', {
  summary: 'Derive a selectively disclosed credential (bbs-2023)',
  description:
    "From a credential issued with bbs-2023 (its base proof), a credential that discloses the issuer's mandatory claims and the selected ones only, with a derived proof verifiers check with the issuer's public key alone. Each derivation is unlinkable to the others. Nothing is stored. A pointer that selects nothing, a credential without a bbs-2023 base proof, or a key that is not BLS12-381 G2 is 400.",
  scopes: ['holder', 'issuer'],
  body: { schema: DeriveBody, example: { verifiableCredential: vcExample, options: { selectivePointers: ['/credentialSubject/alumniOf'] } } },
  responses: { 201: { description: 'the derived credential', schema: Type.Object({ verifiableCredential: JsonObject }), example: { verifiableCredential: credentialExample } } },
});

export const vcVerifyCredential = op('post', p('/credentials/verify'), 'vcApiVerifyCredential', {
  summary: 'Verify a credential of any issuer whose DID resolves',
  description: 'Proof (Data Integrity, legacy suites, VC-JOSE-COSE JWT), validity period and status. A credential that does not verify answers 422 (400 when it is not a credential at all) with a problem whose extension members are the result.',
  scopes: ['verifier'],
  body: { schema: VerifyCredentialBody, example: { verifiableCredential: vcExample } },
  responses: {
    200: { description: 'verified', schema: VerificationResult, example: verified },
    422: {
      description: 'not verified',
      contentType: 'application/problem+json',
      schema: FailedVerification,
      example: { type: 'urn:credgate:vc-api:REVOKED', title: 'The credential did not verify', status: 422, detail: 'The credential has been revoked', verified: false, checks: ['proof', 'validity', 'credentialStatus'], warnings: [], errors: [{ type: 'urn:credgate:vc-api:REVOKED', title: 'The credential has been revoked' }] },
    },
  },
  rateLimited: true,
});

export const vcVerifyPresentation = op('post', p('/presentations/verify'), 'vcApiVerifyPresentation', {
  summary: 'Verify a presentation: its proof by the holder (challenge, domain) and every credential in it',
  scopes: ['verifier'],
  body: { schema: VerifyPresentationBody, example: { verifiablePresentation: { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiablePresentation'], holder: DID_KEY }, options: { challenge: '6e62f66e-67de-11eb-b490-ef3eeefa55f2', domain: 'verifier.example' } } },
  responses: {
    200: { description: 'verified', schema: VerificationResult, example: { verified: true, checks: ['proof', 'holder', 'challenge', 'domain', 'credentials'], warnings: [], errors: [] } },
    422: { description: 'not verified', contentType: 'application/problem+json', schema: FailedVerification },
  },
  rateLimited: true,
});

export const vcUpdateStatus = op('post', p('/credentials/status'), 'vcApiUpdateCredentialStatus', {
  summary: "Revoke, suspend or unsuspend one of the tenant's credentials",
  description: 'Idempotent. A revocation cannot be undone (409).',
  scopes: ['issuer'],
  body: { schema: UpdateStatusBody, example: { credentialId: credentialExample.id, credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' }, status: true } },
  responses: {
    200: {
      description: 'the entry and its status now',
      schema: Type.Object({ credentialId: Type.String(), credentialStatus: JsonObject, status: Type.Boolean() }),
      example: { credentialId: credentialExample.id, credentialStatus: statusEntry, status: true },
    },
  },
  errors: [404, 409],
});

export const vcStatusList = op('get', p('/status-lists/:listId'), 'vcApiStatusList', {
  summary: 'A BitstringStatusListCredential (public)',
  description: "Signed with the instance's suite, re-signed when a bit changes. `ETag` / `If-None-Match` (304); `Cache-Control: no-cache` so a revocation is seen at once.",
  pathParams: [pathParam('listId', 'a status list id', '8d3b7e2a-5c41-4f0e-9a6b-2c7d1e0f3a94')],
  responses: {
    200: { description: 'the signed list credential', schema: JsonObject, headers: ['ETag'] },
    304: { description: 'not modified since the ETag given in If-None-Match' },
  },
  errors: [404],
  rateLimited: true,
});
