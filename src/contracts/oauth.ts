import { Type } from '@sinclair/typebox';
import { SCOPES } from '../domain/tenancy/actor';
import { operationGroup } from './operation';

/** OAuth 2.0: the token endpoint and what clients discover it by (no API key; errors in RFC 6749's shape). */
const op = operationGroup('oauth', 'OAuth 2.0');

/** RFC 6749 §5.2 error body. */
export const OAuthErrorBody = Type.Object(
  { error: Type.String(), error_description: Type.Optional(Type.String()) },
  { title: 'OAuthError', additionalProperties: true },
);

const EXAMPLE_KEY_ID = '2b1f0c8e-4d6a-4f0e-9c3b-7a5d1e2f3a4b';
const TokenRequest = Type.Object(
  {
    grant_type: Type.Literal('client_credentials'),
    scope: Type.Optional(Type.String({ description: `space-separated subset of the key's scopes (${SCOPES.join(', ')}); default: all of them` })),
    client_id: Type.Optional(Type.String({ description: 'client_secret_post: the API key id (else in the Basic header)' })),
    client_secret: Type.Optional(Type.String({ description: 'client_secret_post: the API key (else in the Basic header)' })),
  },
  { additionalProperties: true },
);

const TokenResponse = Type.Object(
  { access_token: Type.String(), token_type: Type.Literal('Bearer'), expires_in: Type.Integer({ minimum: 1 }), scope: Type.String() },
  { additionalProperties: false },
);

export const token = op('post', '/oauth/token', 'oauthToken', {
  summary: 'An access token for an API key (OAuth 2.0 client credentials, RFC 6749 §4.4)',
  description:
    'Client authentication by HTTP Basic (`client_secret_basic`: the API key id as user, the key as password, each form-urlencoded) or in the body (`client_secret_post`). The token is a JWT (RFC 9068, EdDSA, keys at /oauth/jwks) carrying the tenant and the granted scopes; send it as `Authorization: Bearer` on any API route. Refusals follow RFC 6749 §5.2; failed client authentications are rate-limited per client address and client id (429 with Retry-After).',
  body: { schema: TokenRequest, example: { grant_type: 'client_credentials', scope: 'issuer', client_id: EXAMPLE_KEY_ID, client_secret: 'cgk_2b1f0c8e4d6a4f0e9c3b7a5d1e2f3a4b_…' }, mediaTypes: ['application/x-www-form-urlencoded', 'application/json'] },
  responses: {
    200: {
      description: 'the token (Cache-Control: no-store)',
      schema: TokenResponse,
      example: { access_token: 'eyJhbGciOiJFZERTQSIsInR5cCI6ImF0K2p3dCJ9.…', token_type: 'Bearer', expires_in: 600, scope: 'issuer' },
      headers: ['Cache-Control', 'Pragma'],
    },
    400: { description: 'invalid_request, unsupported_grant_type, invalid_scope or unauthorized_client', schema: OAuthErrorBody, example: { error: 'invalid_scope', error_description: 'the key grants only: verifier' } },
    401: { description: 'invalid_client (WWW-Authenticate: Basic)', schema: OAuthErrorBody, example: { error: 'invalid_client', error_description: 'client authentication failed' }, headers: ['WWW-Authenticate'] },
  },
  rateLimited: true,
});

const Jwk = Type.Object({ kty: Type.String(), crv: Type.String(), x: Type.String(), kid: Type.String(), alg: Type.String(), use: Type.String() }, { additionalProperties: true });

export const jwks = op('get', '/oauth/jwks', 'oauthJwks', {
  summary: 'The public keys that sign access tokens (JWK Set, RFC 7517)',
  responses: {
    200: {
      description: 'the key set (during a master-key rotation, the keys of both master keys)',
      schema: Type.Object({ keys: Type.Array(Jwk) }),
      example: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k', alg: 'EdDSA', use: 'sig' }] },
    },
  },
  rateLimited: true,
});

export const metadata = op('get', '/.well-known/oauth-authorization-server', 'oauthMetadata', {
  summary: 'Authorization server metadata (RFC 8414)',
  responses: {
    200: {
      description: 'issuer, token endpoint, JWKS and what they support',
      schema: Type.Object({ issuer: Type.String(), token_endpoint: Type.String(), jwks_uri: Type.String() }, { additionalProperties: true }),
      example: {
        issuer: 'https://credgate.example.com',
        token_endpoint: 'https://credgate.example.com/oauth/token',
        jwks_uri: 'https://credgate.example.com/oauth/jwks',
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        scopes_supported: [...SCOPES],
        response_types_supported: [],
      },
    },
  },
  rateLimited: true,
});
