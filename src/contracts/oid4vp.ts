import { type Static, Type } from '@sinclair/typebox';
import { JsonObject, pathParam } from './common';
import { operationGroup } from './operation';

/**
 * OID4VP 1.0 verifier. The relying-party operations take the API key (verifier scope) and answer in
 * Family B's envelope; the wallet-facing endpoints are the protocol's own (no API key, errors as
 * `{ error, error_description }`).
 */
const rp = operationGroup('service', 'OID4VP verifier');
const wallet = operationGroup('oauth', 'OID4VP wallet endpoints');

const REQUEST_ID = '0b8f6a3e-2c4d-4e5f-8a9b-1c2d3e4f5a6b';
const dcqlExample = { credentials: [{ id: 'pid', format: 'dc+sd-jwt', meta: { vct_values: ['https://credgate.example/oid4vc/acme/vct/pid'] }, claims: [{ path: ['given_name'] }, { path: ['family_name'] }] }] };

export const CreatePresentationRequestBody = Type.Object(
  {
    dcqlQuery: JsonObject,
    responseMode: Type.Optional(Type.String({ description: 'direct_post.jwt (default: the response is encrypted to a per-request ECDH-ES P-256 key) or direct_post' })),
    clientIdPrefix: Type.Optional(Type.String({ description: 'x509_san_dns (default), x509_hash (both sign the request object with x5c, HAIP) or redirect_uri (unsigned, by value; tests)' })),
    webhookUrl: Type.Optional(Type.String({ description: 'https URL the result is POSTed to, signed with X-Credgate-Signature: sha256=<hex HMAC-SHA256 under webhookSecret>' })),
    expiresInSeconds: Type.Optional(Type.Integer({ minimum: 30, maximum: 3600, description: 'default 300' })),
  },
  { title: 'CreatePresentationRequest', additionalProperties: false },
);
export type CreatePresentationRequestBody = Static<typeof CreatePresentationRequestBody>;

const Check = Type.Object({ check: Type.String(), passed: Type.Boolean(), message: Type.Optional(Type.String()) });
const Result = Type.Object(
  {
    verified: Type.Boolean(),
    dcqlSatisfied: Type.Boolean(),
    credentials: Type.Array(Type.Object({ queryId: Type.String(), format: Type.String(), verified: Type.Boolean(), type: Type.Optional(Type.String()), issuer: Type.Optional(Type.String()), claims: JsonObject, checks: Type.Array(Check) })),
    problems: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
    receivedAt: Type.String(),
  },
  { title: 'PresentationResult' },
);
const RequestView = Type.Object(
  {
    id: Type.String(),
    status: Type.String({ description: 'pending, verified or failed' }),
    clientId: Type.String(),
    clientIdPrefix: Type.String(),
    responseMode: Type.String(),
    dcqlQuery: JsonObject,
    authorizationRequest: Type.String({ description: 'the openid4vp:// link (QR code content) for the wallet' }),
    requestUri: Type.Union([Type.String(), Type.Null()]),
    responseUri: Type.String(),
    expiresAt: Type.String(),
    createdAt: Type.String(),
    respondedAt: Type.Union([Type.String(), Type.Null()]),
    webhookUrl: Type.Union([Type.String(), Type.Null()]),
    webhookStatus: Type.Union([Type.String(), Type.Null()]),
    result: Type.Union([Result, Type.Null()]),
  },
  { title: 'PresentationRequest' },
);
const viewExample = {
  id: REQUEST_ID,
  status: 'pending',
  clientId: 'x509_san_dns:credgate.example',
  clientIdPrefix: 'x509_san_dns',
  responseMode: 'direct_post.jwt',
  dcqlQuery: dcqlExample,
  authorizationRequest: `openid4vp://?client_id=x509_san_dns%3Acredgate.example&request_uri=https%3A%2F%2Fcredgate.example%2Foid4vp%2Frequest-objects%2F${REQUEST_ID}`,
  requestUri: `https://credgate.example/oid4vp/request-objects/${REQUEST_ID}`,
  responseUri: `https://credgate.example/oid4vp/responses/${REQUEST_ID}`,
  expiresAt: '2026-11-27T12:05:00.000Z',
  createdAt: '2026-11-27T12:00:00.000Z',
  respondedAt: null,
  webhookUrl: null,
  webhookStatus: null,
  result: null,
};

export const createPresentationRequest = rp('post', '/oid4vp/requests', 'createPresentationRequest', {
  summary: 'Create an OID4VP presentation request from a DCQL query',
  description: 'Answers the link a wallet opens (as a QR code or a same-device link) and, with a webhookUrl, the HMAC key of its signatures (shown once).',
  scopes: ['verifier'],
  body: { schema: CreatePresentationRequestBody, example: { dcqlQuery: dcqlExample, responseMode: 'direct_post.jwt' } },
  responses: { 201: { description: 'the request', schema: Type.Composite([RequestView, Type.Object({ webhookSecret: Type.Union([Type.String(), Type.Null()]) })]), example: { ...viewExample, webhookSecret: null } } },
});

export const getPresentationRequest = rp('get', '/oid4vp/requests/:requestId', 'getPresentationRequest', {
  summary: "A presentation request of the caller's tenant, with its result once the wallet answered",
  scopes: ['verifier'],
  pathParams: [pathParam('requestId', 'the request id', REQUEST_ID)],
  responses: { 200: { description: 'the request', schema: RequestView, example: viewExample } },
  errors: [404],
});

export const getPresentationResult = rp('get', '/oid4vp/requests/:requestId/result', 'getPresentationResult', {
  summary: 'The verification result of a presentation request (status pending and result null until the wallet answers)',
  scopes: ['verifier'],
  pathParams: [pathParam('requestId', 'the request id', REQUEST_ID)],
  responses: { 200: { description: 'status and result', schema: Type.Object({ id: Type.String(), status: Type.String(), result: Type.Union([Result, Type.Null()]) }), example: { id: REQUEST_ID, status: 'pending', result: null } } },
  errors: [404],
});

const ErrorBody = Type.Object({ error: Type.String(), error_description: Type.Optional(Type.String()) }, { additionalProperties: true });

export const getRequestObject = wallet('get', '/oid4vp/request-objects/:requestId', 'oid4vpRequestObject', {
  summary: 'The signed request object (application/oauth-authz-req+jwt, typ oauth-authz-req+jwt, x5c) of a request passed by reference',
  pathParams: [pathParam('requestId', 'the request id', REQUEST_ID)],
  responses: { 200: { description: 'the JWT', contentType: 'application/oauth-authz-req+jwt' }, 400: { description: 'answered or expired (invalid_request)', schema: ErrorBody } },
  errors: [404],
});

export const postRequestObject = wallet('post', '/oid4vp/request-objects/:requestId', 'oid4vpRequestObjectPost', {
  summary: 'request_uri_method=post (OID4VP 1.0 §5.10): the wallet sends wallet_metadata and wallet_nonce; the object echoes wallet_nonce',
  pathParams: [pathParam('requestId', 'the request id', REQUEST_ID)],
  body: { schema: Type.Object({ wallet_metadata: Type.Optional(Type.String()), wallet_nonce: Type.Optional(Type.String()) }, { additionalProperties: true }), example: { wallet_nonce: 'qPmxiNFCR3QTm19POc8u' }, mediaTypes: ['application/x-www-form-urlencoded'] },
  responses: { 200: { description: 'the JWT', contentType: 'application/oauth-authz-req+jwt' }, 400: { description: 'invalid_request', schema: ErrorBody } },
  errors: [404],
});

export const postResponse = wallet('post', '/oid4vp/responses/:requestId', 'oid4vpResponse', {
  summary: "The response endpoint: direct_post (vp_token, state) or direct_post.jwt (response: a JWE to the request's key)",
  description: 'A response is taken once: a second one for the same request is refused (invalid_request). Protocol mistakes change nothing; a response whose credentials do not verify is recorded as a failed result and answered 400 access_denied.',
  pathParams: [pathParam('requestId', 'the request id', REQUEST_ID)],
  body: { schema: Type.Object({ vp_token: Type.Optional(Type.String()), state: Type.Optional(Type.String()), response: Type.Optional(Type.String()) }, { additionalProperties: true }), example: { response: 'eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSIsImtpZCI6Ii4uLiJ9…' }, mediaTypes: ['application/x-www-form-urlencoded'] },
  responses: { 200: { description: 'accepted and verified', schema: Type.Object({}, { additionalProperties: true }) }, 400: { description: 'invalid_request, access_denied', schema: ErrorBody } },
  errors: [404],
});
