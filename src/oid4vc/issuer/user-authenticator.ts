/**
 * The pluggable hook of the authorization code flow: the issuer authenticates the user itself
 * (OID4VCI 1.0 §5) and decides whether that user may receive the offer's credential. Deployments
 * put their login here; tests use the header-based implementation below.
 */
export interface UserAuthenticator {
  /**
   * Authenticates the user agent's request at the authorization endpoint. Returns the subject, or
   * null when the user is not (or cannot be) authenticated, which the wallet sees as access_denied.
   */
  authenticate(input: { readonly tenantId: string; readonly offerId: string; readonly headers: Readonly<Record<string, string | undefined>>; readonly query: Readonly<Record<string, string>> }): Promise<string | null>;
}

/**
 * Authenticates no one: the authorization code flow is refused (access_denied) until a deployment
 * plugs in its own login. The default, so an unconfigured issuer never hands out a code.
 */
export const noUserAuthentication: UserAuthenticator = { authenticate: async () => null };

/**
 * A test login: the user is whoever `login_hint` names when it equals the subject the offer was
 * created for (`claims.sub`), so a test can act as the right user and as a wrong one. Enabled by
 * CREDGATE_OID4VCI_TEST_LOGIN=true; never on in production.
 */
export const loginHintAuthenticator = (subjectOf: (tenantId: string, offerId: string) => Promise<string | null>): UserAuthenticator => ({
  async authenticate({ tenantId, offerId, query }) {
    const hint = query['login_hint'];
    if (!hint) return null;
    const expected = await subjectOf(tenantId, offerId);
    return expected !== null && expected === hint ? hint : null;
  },
});
