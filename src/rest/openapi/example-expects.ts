/**
 * What "Try it out" → "Execute" in /docs gets with an operation's example as it is, when that is
 * not a success (issue 20, item 4). Every other operation's example succeeds, repeatedly, on any
 * deployment (with an API key of tenant `acme`, the tenant the examples name).
 *
 * An example cannot succeed everywhere when it names a record only one deployment has (an id, a
 * DID, a log, a status list, an offer), carries what only a holder or wallet makes for this
 * deployment (a signature over its DID, a DPoP proof, a nonce it issued), or asks to verify a
 * credential no issuer here signed (which must fail). Those operations carry
 * `x-example-expects: { status, why }` in /openapi.json: the error the example shows, and what to
 * put in instead. `notSent`: Swagger UI sends nothing until files are chosen.
 * test/browser/support/swagger-execute.ts presses Execute on every operation and holds each
 * to this table: a mark that no longer matches (the example now succeeds, or fails otherwise) fails it.
 */
export interface ExampleExpectation {
  readonly status?: number;
  readonly notSent?: true;
  readonly why: string;
}

const RECORD = 'the example names a record that exists only where it was created: put in one of yours (its id, DID or name)';
const OFFER = 'the example names a credential offer of another deployment: put in the id POST /oid4vci/offers answered';
const REQUEST = 'the example names a presentation request of another deployment: put in the id POST /oid4vp/requests answered';
const LOG = 'the example names a ledger log of another deployment: put in a log id of one of your DIDs (topicId, templateTopicId or ledgerFileId)';
const HOLDER = 'needs what the holder signs or holds for this deployment (its registered user DID and signature): the example shows the shape';
const NOT_OURS = 'verifies an example that no issuer of this deployment signed: the verification fails, as it must';
const WALLET = 'a wallet endpoint: it needs the access token, DPoP proof or state a wallet obtained from this issuer in the steps before';
const ISSUER_DID = 'the template names its issuer, a DID of your tenant: put in one POST /dids answered';

/** By operation id (the same for every path spelling of an operation). */
export const EXAMPLE_EXPECTS: Readonly<Record<string, ExampleExpectation>> = {
  graphqlGet: { status: 400, why: "Apollo's CSRF prevention refuses a GET without `apollo-require-preflight` (or a non-simple content type), which a plain link cannot send: use POST /graphql" },
  publicSchema: { status: 404, why: 'names the schema EmployeeBadge:1, which exists once a tenant created it (POST /issuer/createSchema)' },
  publicTenantSchema: { status: 404, why: 'names the schema EmployeeBadge:1 of tenant acme, which exists once acme created it (POST /issuer/createSchema)' },
  statusList: { status: 404, why: RECORD },
  bbsStatusList: { status: 404, why: RECORD },
  tokenStatusList: { status: 404, why: RECORD },
  userHolderProof: { status: 400, why: 'the verifier chooses the nonce (16 to 256 printable characters) and the holder signs it with its own key: the example shows the shape' },
  userDecrypt: { status: 400, why: 'decrypts a value sealed in one of your credentials: put in its id and the holder key' },
  createZkp: { status: 404, why: RECORD },
  deleteIssuerDid: { status: 404, why: RECORD },
  issueCredentialA: { status: 400, why: HOLDER },
  reissueCredentialA: { status: 404, why: RECORD },
  revokeCredentialA: { status: 404, why: RECORD },
  compareFaces: { status: 400, why: 'compares two face templates that POST /user/image/createTemplate made from photos: the example bytes are no template' },
  createFaceTemplate: { notSent: true, why: 'choose the two photos (files) in the form: an example cannot carry a file' },
  createFaceTemplatePut: { notSent: true, why: 'choose the two photos (files) in the form: an example cannot carry a file' },
  getDidByHeader: { status: 404, why: RECORD },
  getDid: { status: 404, why: RECORD },
  resolveDid: { status: 404, why: RECORD },
  universalResolver: { status: 404, why: RECORD },
  createTemplate: { status: 400, why: ISSUER_DID },
  updateTemplate: { status: 400, why: ISSUER_DID },
  deleteTemplate: { status: 404, why: RECORD },
  getTemplateByName: { status: 404, why: RECORD },
  getCredential: { status: 404, why: RECORD },
  revokeCredential: { status: 404, why: RECORD },
  issueCredential: { status: 400, why: 'names a template of another deployment: put in the templateId POST /vc-templates answered' },
  verifyCredential: { status: 400, why: NOT_OURS },
  createVp: { status: 400, why: 'names credentials of another deployment: put in ids of credentials your tenant issued' },
  createZkpToken: { status: 404, why: RECORD },
  verifySignature: { status: 400, why: NOT_OURS },
  verifyVp: { status: 400, why: NOT_OURS },
  verifyZkpToken: { status: 400, why: NOT_OURS },
  zkHolderSignature: { status: 403, why: 'only a holder-bound API key (api-key create --holder-did) gets a BBS signature, for its own holder' },
  zkIssuerKey: { status: 404, why: RECORD },
  ledgerAnchor: { status: 404, why: LOG },
  ledgerCheckpoint: { status: 404, why: LOG },
  ledgerConsistencyProof: { status: 404, why: LOG },
  ledgerEntry: { status: 404, why: LOG },
  ledgerInclusionProof: { status: 404, why: LOG },
  ledgerLeaves: { status: 404, why: LOG },
  vcApiDeriveCredential: { status: 400, why: 'derives from a bbs-2023 credential your bbs-2023 instance issued: the example is not one' },
  vcApiIssueCredential: { status: 400, why: "credential.issuer must name your default instance's DID (GET /vc-api/issuers lists it): put it in, and the example issues, as often as you like" },
  vcApiIssueWithInstance: { status: 404, why: 'names an issuer instance of another deployment: put in an id POST /vc-api/issuers answered' },
  vcApiStatusList: { status: 404, why: RECORD },
  vcApiUpdateCredentialStatus: { status: 404, why: 'names a credential your tenant issued with a status entry: put in its id' },
  vcApiVerifyCredential: { status: 422, why: NOT_OURS },
  vcApiVerifyPresentation: { status: 422, why: NOT_OURS },
  oauthToken: { status: 401, why: 'client authentication: put in your API key id as client_id and the key as client_secret' },
  getPresentationRequest: { status: 404, why: REQUEST },
  getPresentationResult: { status: 404, why: REQUEST },
  oid4vpRequestObject: { status: 404, why: REQUEST },
  oid4vpRequestObjectPost: { status: 404, why: REQUEST },
  oid4vpResponse: { status: 404, why: REQUEST },
  walletConsolePresentationRequestQr: { status: 404, why: REQUEST },
  createCredentialOffer: { status: 400, why: 'names a credential configuration of another deployment: put in one of yours (GET /.well-known/openid-credential-issuer/oid4vc/<tenant> lists them)' },
  getCredentialOffer: { status: 404, why: OFFER },
  revokeCredentialOffer: { status: 404, why: OFFER },
  credentialOfferCredentials: { status: 404, why: OFFER },
  markCredentialOfferReady: { status: 404, why: OFFER },
  oid4vciCredentialOffer: { status: 404, why: 'names an offer handle of another deployment: a wallet gets it from the offer link' },
  oid4vciTypeMetadata: { status: 404, why: 'names a credential configuration of another deployment: put in one of your tenant’s configuration ids' },
  oid4vciAuthorize: { status: 400, why: WALLET },
  oid4vciPushedAuthorizationRequest: { status: 400, why: WALLET },
  oid4vciToken: { status: 400, why: WALLET },
  oid4vciCredential: { status: 401, why: WALLET },
  oid4vciDeferredCredential: { status: 401, why: WALLET },
  oid4vciNotification: { status: 401, why: WALLET },
};

/**
 * Query parameters whose example the document leaves out, because sending it as it is fails: a
 * page cursor is only ever the `next` of the previous page (an example cursor is a 400 "after is
 * not a template of this list"), and a schema version given beside a name that already carries
 * one (`EmployeeBadge:1`) is a 400 "given twice". Their descriptions say what to send.
 */
export const QUERY_EXAMPLES_LEFT_OUT: Readonly<Record<string, readonly string[]>> = {
  listTemplates: ['after'],
  listCredentialOffers: ['after'],
  publicSchema: ['version'],
  publicTenantSchema: ['version'],
};

/**
 * Request bodies the document shows instead of the contract's example. The VC-API issue example
 * had a fixed `credential.id` with a status entry, so its second Execute was a 409 (an id gets
 * status entries once per tenant): the document's example has neither, and issues again and again
 * once `credential.issuer` names your instance.
 */
export function documentBodyExample(operationId: string, example: unknown): unknown {
  if (operationId !== 'vcApiIssueCredential' && operationId !== 'vcApiIssueWithInstance') return example;
  const body = example as { credential: Record<string, unknown> };
  const { id: _id, ...credential } = body.credential;
  return { credential };
}
