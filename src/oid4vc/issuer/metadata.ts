import type { IssuerRuntime, TenantIssuer } from './context';

/** The endpoints of one tenant's issuer, under its identifier. */
export function endpointsOf(issuer: string) {
  return {
    credential: `${issuer}/credential`,
    deferred: `${issuer}/deferred_credential`,
    notification: `${issuer}/notification`,
    nonce: `${issuer}/nonce`,
    token: `${issuer}/token`,
    par: `${issuer}/par`,
    authorize: `${issuer}/authorize`,
    offer: `${issuer}/credential-offer`,
  } as const;
}

/**
 * Credential issuer metadata (OID4VCI 1.0 §12.2). Built here rather than through oid4vc-ts's
 * validating builder: that one insists on https URLs process-wide, and a deployment behind
 * http://localhost (development, the tests) must still serve its metadata. The shape is the
 * one the library's client parses (the wallet tests read it with Openid4vciClient).
 */
export async function credentialIssuerMetadata(rt: IssuerRuntime, t: TenantIssuer): Promise<Record<string, unknown>> {
  const e = endpointsOf(t.issuer);
  const configurations = await rt.configurations(t);
  return {
    credential_issuer: t.issuer,
    authorization_servers: [t.issuer],
    credential_endpoint: e.credential,
    deferred_credential_endpoint: e.deferred,
    notification_endpoint: e.notification,
    nonce_endpoint: e.nonce,
    batch_credential_issuance: { batch_size: rt.deps.settings.batchSize },
    display: [{ name: `Credgate (${t.slug})`, locale: 'en' }],
    credential_configurations_supported: Object.fromEntries(configurations.map((c) => [c.id, c.metadata])),
  };
}

/** Authorization server metadata (RFC 8414) of the same issuer (plain, for the same reason). */
export function authorizationServerMetadata(rt: IssuerRuntime, t: TenantIssuer): Record<string, unknown> {
  const e = endpointsOf(t.issuer);
  const s = rt.deps.settings;
  return {
    issuer: t.issuer,
    token_endpoint: e.token,
    authorization_endpoint: e.authorize,
    pushed_authorization_request_endpoint: e.par,
    require_pushed_authorization_requests: true,
    'pre-authorized_grant_anonymous_access_supported': true,
    grant_types_supported: ['urn:ietf:params:oauth:grant-type:pre-authorized_code', 'authorization_code'],
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    dpop_signing_alg_values_supported: ['ES256'],
    token_endpoint_auth_methods_supported: s.requireWalletAttestation ? ['attest_jwt_client_auth'] : ['none', 'attest_jwt_client_auth'],
  };
}
