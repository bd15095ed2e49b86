import { type Static, Type } from '@sinclair/typebox';
import { JsonObject, UUID_PATTERN, pathParam } from './common';
import { operationGroup } from './operation';
import { OAuthErrorBody } from './oauth';

/**
 * OpenID for Verifiable Credential Issuance 1.0: the wallet-facing endpoints of each tenant's
 * credential issuer (no API key; OAuth-style errors), and the issuer-admin operations on
 * credential offers (API key, scope issuer). The issuer identifier is `{CREDGATE_PUBLIC_URL}/oid4vc/{tenant}`.
 */
const wallet = operationGroup('oauth', 'OpenID4VCI (wallets)');
const admin = operationGroup('B', 'OpenID4VCI offers');
const ISSUER = ['issuer'] as const;

const TENANT = pathParam('tenant', 'the tenant slug (the last segment of the credential issuer identifier)', 'acme');
const ISSUER_ID = 'https://credgate.example.com/oid4vc/acme';
const CONFIG_ID = 'template.8c0c7a4e-3f5e-4a57-9f9c-0c1d2e3f4a5b.sd_jwt';
const OFFER_ID = '5b7c8d9e-0f1a-4b2c-8d3e-4f5a6b7c8d9e';

const Metadata = Type.Object({}, { additionalProperties: true, title: 'Oid4vciMetadata' });
const errors = {
  400: { description: 'an OAuth error (invalid_request, invalid_grant, invalid_dpop_proof, use_dpop_nonce, invalid_proof, invalid_nonce, …)', schema: OAuthErrorBody, example: { error: 'invalid_grant', error_description: 'the pre-authorized code is invalid, spent or expired' } },
  404: { description: 'no credential issuer at this address', schema: OAuthErrorBody, example: { error: 'invalid_request', error_description: 'no credential issuer at this address' } },
} as const;
const resourceErrors = {
  ...errors,
  401: { description: 'invalid_token or invalid_dpop_proof (WWW-Authenticate: DPoP)', schema: OAuthErrorBody, example: { error: 'invalid_token', error_description: 'the access token is invalid or expired' }, headers: ['WWW-Authenticate'] },
} as const;

export const issuerMetadata = wallet('get', ['/.well-known/openid-credential-issuer/oid4vc/:tenant', '/oid4vc/:tenant/.well-known/openid-credential-issuer'], 'oid4vciIssuerMetadata', {
  summary: 'Credential issuer metadata (OID4VCI 1.0 §12.2)',
  description: 'Credential configurations derived from the tenant\'s templates and schema versions, one per format the service can issue.',
  pathParams: [TENANT],
  responses: { 200: { description: 'the metadata', schema: Metadata, example: { credential_issuer: ISSUER_ID, credential_endpoint: `${ISSUER_ID}/credential`, credential_configurations_supported: {} } }, 404: errors[404] },
});

export const authorizationServerMetadata = wallet('get', ['/.well-known/oauth-authorization-server/oid4vc/:tenant', '/oid4vc/:tenant/.well-known/oauth-authorization-server'], 'oid4vciAuthorizationServerMetadata', {
  summary: 'Authorization server metadata of the issuer (RFC 8414)',
  pathParams: [TENANT],
  responses: { 200: { description: 'the metadata', schema: Metadata, example: { issuer: ISSUER_ID, token_endpoint: `${ISSUER_ID}/token` } }, 404: errors[404] },
});

export const typeMetadata = wallet('get', '/oid4vc/:tenant/vct/:configurationId', 'oid4vciTypeMetadata', {
  summary: 'SD-JWT VC Type Metadata behind a dc+sd-jwt configuration\'s vct',
  pathParams: [TENANT, pathParam('configurationId', 'a dc+sd-jwt credential configuration id', CONFIG_ID)],
  responses: { 200: { description: 'the type metadata', schema: Metadata, example: { vct: `${ISSUER_ID}/vct/${CONFIG_ID}`, name: 'Employee', display: [], claims: [] } }, 404: { description: 'no such type', schema: OAuthErrorBody, example: { error: 'invalid_request', error_description: 'no such credential type' } } },
});

export const credentialOfferByReference = wallet('get', '/oid4vc/:tenant/credential-offer/:handle', 'oid4vciCredentialOffer', {
  summary: 'A credential offer by reference (credential_offer_uri)',
  pathParams: [TENANT, pathParam('handle', 'the secret part of the offer URI', 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c')],
  responses: { 200: { description: 'the credential offer object', schema: JsonObject, example: { credential_issuer: ISSUER_ID, credential_configuration_ids: [CONFIG_ID], grants: {} } }, 404: { description: 'no such (live) offer', schema: OAuthErrorBody, example: { error: 'invalid_request', error_description: 'no such credential offer' } } },
});

const form = (schema: ReturnType<typeof Type.Object>, example: unknown) => ({ schema, example, mediaTypes: ['application/x-www-form-urlencoded'] });

export const token = wallet('post', '/oid4vc/:tenant/token', 'oid4vciToken', {
  summary: 'Token endpoint: pre-authorized code (with tx_code) or authorization code (PKCE S256)',
  description: 'Access tokens are DPoP-bound (send a DPoP proof). Too many wrong tx_codes lock the offer.',
  pathParams: [TENANT],
  headers: [{ name: 'DPoP', description: 'DPoP proof (RFC 9449)', schema: Type.String(), example: 'eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7fX0.e30.c2ln' }],
  body: form(Type.Object({ grant_type: Type.String() }, { additionalProperties: true }), { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': 'SplxlOBeZQQYbYS6WxSbIA', tx_code: '493536' }),
  responses: { 200: { description: 'the access token', schema: JsonObject, example: { access_token: 'Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU', token_type: 'DPoP', expires_in: 300 }, headers: ['Cache-Control'] }, ...errors, 401: { description: 'invalid_client (wallet attestation required or invalid)', schema: OAuthErrorBody, example: { error: 'invalid_client', error_description: 'a wallet attestation is required' } } },
});

export const par = wallet('post', '/oid4vc/:tenant/par', 'oid4vciPushedAuthorizationRequest', {
  summary: 'Pushed authorization request (RFC 9126; PKCE S256, issuer_state from an offer)',
  pathParams: [TENANT],
  body: form(Type.Object({ response_type: Type.String(), client_id: Type.String() }, { additionalProperties: true }), { response_type: 'code', client_id: 'wallet', redirect_uri: 'https://wallet.example/cb', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', issuer_state: 'eyJhbGciOiJSU0Et' }),
  responses: { 201: { description: 'the request_uri to send to the authorization endpoint', schema: JsonObject, example: { request_uri: 'urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c', expires_in: 90 } }, ...errors },
});

export const authorize = wallet('get', '/oid4vc/:tenant/authorize', 'oid4vciAuthorize', {
  summary: 'Authorization endpoint: the issuer authenticates the user, then redirects with a code',
  pathParams: [TENANT],
  query: [
    { name: 'client_id', description: 'as in the pushed request', example: 'wallet', schema: Type.String(), required: true },
    { name: 'request_uri', description: 'from the PAR endpoint', example: 'urn:ietf:params:oauth:request_uri:6esc_11ACC5bwc014ltc14eY22c', schema: Type.String(), required: true },
  ],
  responses: { 302: { description: 'redirect to redirect_uri with code (or error=access_denied), state and iss', headers: ['Location'] }, ...errors },
});

export const nonce = wallet('post', '/oid4vc/:tenant/nonce', 'oid4vciNonce', {
  summary: 'A fresh single-use c_nonce for key proofs (OID4VCI 1.0 §7)',
  pathParams: [TENANT],
  responses: { 200: { description: 'the nonce (Cache-Control: no-store)', schema: Type.Object({ c_nonce: Type.String() }), example: { c_nonce: 'wKI4LT17ac15ES9bw8ac4' }, headers: ['Cache-Control'] }, 404: errors[404] },
});

export const credential = wallet('post', '/oid4vc/:tenant/credential', 'oid4vciCredential', {
  summary: 'Credential endpoint: one credential per key proof (batch), or a transaction_id when deferred',
  pathParams: [TENANT],
  body: { schema: JsonObject, example: { credential_configuration_id: CONFIG_ID, proofs: { jwt: ['eyJ0eXAiOiJvcGVuaWQ0dmNpLXByb29mK2p3dCJ9.e30.c2ln'] } } },
  responses: {
    200: { description: 'the credentials and a notification_id', schema: JsonObject, example: { credentials: [{ credential: 'eyJ0eXAiOiJkYytzZC1qd3QifQ.e30.c2ln~' }], notification_id: '3fwe98js' } },
    202: { description: 'deferred: poll the deferred credential endpoint with transaction_id', schema: JsonObject, example: { transaction_id: '8xLOxBtZp8', interval: 5 } },
    ...resourceErrors,
  },
});

export const deferredCredential = wallet('post', '/oid4vc/:tenant/deferred_credential', 'oid4vciDeferredCredential', {
  summary: 'Deferred credential endpoint (OID4VCI 1.0 §9)',
  pathParams: [TENANT],
  body: { schema: JsonObject, example: { transaction_id: '8xLOxBtZp8' } },
  responses: {
    200: { description: 'the credentials', schema: JsonObject, example: { credentials: [{ credential: 'eyJ0eXAiOiJkYytzZC1qd3QifQ.e30.c2ln~' }], notification_id: '3fwe98js' } },
    202: { description: 'not ready yet', schema: JsonObject, example: { transaction_id: '8xLOxBtZp8', interval: 5 } },
    ...resourceErrors,
  },
});

export const notification = wallet('post', '/oid4vc/:tenant/notification', 'oid4vciNotification', {
  summary: 'Notification endpoint: credential_accepted, credential_failure or credential_deleted',
  pathParams: [TENANT],
  body: { schema: JsonObject, example: { notification_id: '3fwe98js', event: 'credential_accepted' } },
  responses: { 204: { description: 'recorded' }, ...resourceErrors },
});

// --- issuer admin -------------------------------------------------------------------------------

export const CreateOfferBody = Type.Object(
  {
    credentialConfigurationIds: Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { minItems: 1, maxItems: 20, description: 'ids from the issuer metadata' }),
    claims: Type.Object({}, { additionalProperties: true, description: 'the subject claims of the credential' }),
    grants: Type.Optional(Type.Array(Type.Union([Type.Literal('pre-authorized_code'), Type.Literal('authorization_code')]), { minItems: 1, maxItems: 2, description: 'default: pre-authorized_code' })),
    txCodeLength: Type.Optional(Type.Integer({ minimum: 4, maximum: 12, description: 'ask for a numeric transaction code of this length (pre-authorized only)' })),
    byReference: Type.Optional(Type.Boolean({ description: 'link with credential_offer_uri instead of the offer itself' })),
    deferred: Type.Optional(Type.Boolean({ description: 'issue later: the wallet gets a transaction_id until the offer is marked ready' })),
    expiresInSeconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 7776000 })),
  },
  { additionalProperties: false, title: 'CreateCredentialOfferRequest' },
);
export type CreateOfferBody = Static<typeof CreateOfferBody>;

const OfferStatusSchema = Type.Union(['offered', 'token-issued', 'credential-issued', 'accepted', 'failed', 'revoked'].map((s) => Type.Literal(s)));
const OfferViewSchema = Type.Object(
  {
    id: Type.String(),
    status: OfferStatusSchema,
    credentialConfigurationIds: Type.Array(Type.String()),
    txCodeRequired: Type.Boolean(),
    locked: Type.Boolean(),
    deferred: Type.Boolean(),
    ready: Type.Boolean(),
    expiresAt: Type.String(),
    createdAt: Type.String(),
    updatedAt: Type.String(),
    revokedAt: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'CredentialOffer' },
);
const viewExample = {
  id: OFFER_ID,
  status: 'offered',
  credentialConfigurationIds: [CONFIG_ID],
  txCodeRequired: true,
  locked: false,
  deferred: false,
  ready: true,
  expiresAt: '2026-12-04T10:00:00.000Z',
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  revokedAt: null,
};
const offerId = pathParam('offerId', 'the offer id', OFFER_ID);

export const createOffer = admin('post', '/oid4vci/offers', 'createCredentialOffer', {
  summary: 'Create a credential offer (link and QR codes; the tx_code is shown only here)',
  scopes: ISSUER,
  body: { schema: CreateOfferBody, example: { credentialConfigurationIds: [CONFIG_ID], claims: { given_name: 'Erika', family_name: 'Mustermann' }, txCodeLength: 6 } },
  responses: {
    201: {
      description: 'the offer, its openid-credential-offer:// link, the tx_code and QR codes (SVG, PNG data URL)',
      schema: Type.Intersect([OfferViewSchema, Type.Object({ grants: Type.Array(Type.String()), offerUri: Type.String(), credentialOffer: JsonObject, credentialOfferUri: Type.Union([Type.String(), Type.Null()]), txCode: Type.Union([Type.String(), Type.Null()]), qrSvg: Type.String(), qrPng: Type.String() })]),
      example: { ...viewExample, grants: ['pre-authorized_code'], offerUri: 'openid-credential-offer://?credential_offer=%7B%7D', credentialOffer: { credential_issuer: ISSUER_ID }, credentialOfferUri: null, txCode: '493536', qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>', qrPng: 'data:image/png;base64,iVBORw0KGgo=' },
    },
  },
  errors: [400],
});

export const listOffers = admin('get', '/oid4vci/offers', 'listCredentialOffers', {
  summary: 'List credential offers (newest first)',
  scopes: ISSUER,
  query: [
    { name: 'first', description: 'page size, 1-200', example: 50, schema: Type.Integer({ minimum: 1, maximum: 200 }) },
    { name: 'after', description: 'the `next` of the previous page', example: OFFER_ID, schema: Type.String({ pattern: UUID_PATTERN, description: 'an offer id' }) },
  ],
  responses: { 200: { description: 'one page', schema: Type.Object({ items: Type.Array(OfferViewSchema), hasMore: Type.Boolean(), next: Type.Union([Type.String(), Type.Null()]) }), example: { items: [viewExample], hasMore: false, next: null } } },
  errors: [400],
});

export const getOffer = admin('get', '/oid4vci/offers/:offerId', 'getCredentialOffer', {
  summary: 'A credential offer and how far the wallet got (status)',
  scopes: ISSUER,
  pathParams: [offerId],
  responses: { 200: { description: 'the offer', schema: OfferViewSchema, example: viewExample } },
  errors: [404],
});

export const revokeOffer = admin('delete', '/oid4vci/offers/:offerId', 'revokeCredentialOffer', {
  summary: 'Revoke a credential offer: its codes and access tokens stop working',
  scopes: ISSUER,
  pathParams: [offerId],
  responses: { 200: { description: 'the revoked offer', schema: OfferViewSchema, example: { ...viewExample, status: 'revoked', revokedAt: '2026-11-27T11:00:00.000Z' } } },
  errors: [404, 409],
});

export const markOfferReady = admin('post', '/oid4vci/offers/:offerId/ready', 'markCredentialOfferReady', {
  summary: 'A deferred offer\'s credential may now be issued (the wallet\'s next deferred request gets it)',
  scopes: ISSUER,
  pathParams: [offerId],
  responses: { 200: { description: 'the offer', schema: OfferViewSchema, example: { ...viewExample, deferred: true, ready: true } } },
  errors: [404, 409],
});

const IssuedCredentialSchema = Type.Object(
  {
    id: Type.String({ description: 'the credential record id: DELETE /credentials/{id} revokes this credential alone' }),
    offerId: Type.String(),
    configurationId: Type.String(),
    format: Type.String({ description: 'the OpenID4VCI format it was issued in (dc+sd-jwt, mso_mdoc, …)' }),
    status: Type.Union([Type.Literal('issued'), Type.Literal('revoked')]),
    issuedAt: Type.String(),
    revokedAt: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'Oid4vciIssuedCredential' },
);

export const listOfferCredentials = admin('get', '/oid4vci/offers/:offerId/credentials', 'credentialOfferCredentials', {
  summary: 'The credentials wallets received under an offer, each with the id that revokes it alone (DELETE /credentials/{id})',
  scopes: ISSUER,
  pathParams: [offerId],
  responses: {
    200: {
      description: 'oldest first; credentials that carry no status entry (ldp_vc through the VC-API) are not listed',
      schema: Type.Object({ items: Type.Array(IssuedCredentialSchema) }),
      example: { items: [{ id: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9', offerId: OFFER_ID, configurationId: CONFIG_ID, format: 'dc+sd-jwt', status: 'issued', issuedAt: '2026-11-27T10:01:00.000Z', revokedAt: null }] },
    },
  },
  errors: [404],
});
