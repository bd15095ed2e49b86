/**
 * Policies of the OpenID4VCI issuer (src/oid4vc/issuer), parsed once with the rest of the
 * configuration (CREDGATE_OID4VCI_*); the defaults follow HAIP where it decides (DPoP required)
 * and keep the attestation policies off, as the issue asks.
 */
export interface Oid4vciSettings {
  /** Wrong tx_codes after which an offer is locked for good. */
  readonly txCodeMaxAttempts: number;
  readonly offerTtlSeconds: number;
  readonly accessTokenTtlSeconds: number;
  readonly nonceTtlSeconds: number;
  /** How far a proof's or DPoP proof's `iat` may be from now. */
  readonly proofWindowSeconds: number;
  /** Access tokens are DPoP-bound; a token request without a DPoP proof is refused. */
  readonly requireDpop: boolean;
  /** The token and credential endpoints ask for a server DPoP nonce (use_dpop_nonce) first. */
  readonly dpopNonce: boolean;
  /** OAuth client attestation (attest_jwt_client_auth) required at the token and PAR endpoints. */
  readonly requireWalletAttestation: boolean;
  /** Key proofs must carry a key attestation (`key_attestation` header). */
  readonly requireKeyAttestation: boolean;
  /** Most proofs (credentials) one credential request may carry. */
  readonly batchSize: number;
  /** Seconds a wallet should wait between deferred credential requests. */
  readonly deferredInterval: number;
  /**
   * The authorization code flow's test login (user-authenticator.ts: login_hint = the offer's
   * claims.sub). Off by default: without a deployment's own hook nobody can log in.
   */
  readonly testLogin: boolean;
}

export const DEFAULT_OID4VCI_SETTINGS: Oid4vciSettings = Object.freeze({
  txCodeMaxAttempts: 5,
  offerTtlSeconds: 7 * 24 * 3600,
  accessTokenTtlSeconds: 300,
  nonceTtlSeconds: 300,
  proofWindowSeconds: 300,
  requireDpop: true,
  dpopNonce: false,
  requireWalletAttestation: false,
  requireKeyAttestation: false,
  batchSize: 10,
  deferredInterval: 5,
  testLogin: false,
});

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const v = env[name]?.trim().toLowerCase();
  if (v === undefined || v === '') return fallback;
  if (v === 'true' || v === '1' || v === 'on') return true;
  if (v === 'false' || v === '0' || v === 'off') return false;
  throw new Error(`${name} must be true or false`);
}

function count(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const v = env[name]?.trim();
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

export function parseOid4vciSettings(env: NodeJS.ProcessEnv): Oid4vciSettings {
  const d = DEFAULT_OID4VCI_SETTINGS;
  return Object.freeze({
    txCodeMaxAttempts: count(env, 'CREDGATE_OID4VCI_TX_CODE_ATTEMPTS', d.txCodeMaxAttempts, 1, 100),
    offerTtlSeconds: count(env, 'CREDGATE_OID4VCI_OFFER_TTL_SECONDS', d.offerTtlSeconds, 60, 90 * 24 * 3600),
    accessTokenTtlSeconds: count(env, 'CREDGATE_OID4VCI_TOKEN_TTL_SECONDS', d.accessTokenTtlSeconds, 30, 24 * 3600),
    nonceTtlSeconds: count(env, 'CREDGATE_OID4VCI_NONCE_TTL_SECONDS', d.nonceTtlSeconds, 5, 3600),
    proofWindowSeconds: d.proofWindowSeconds,
    requireDpop: flag(env, 'CREDGATE_OID4VCI_REQUIRE_DPOP', d.requireDpop),
    dpopNonce: flag(env, 'CREDGATE_OID4VCI_DPOP_NONCE', d.dpopNonce),
    requireWalletAttestation: flag(env, 'CREDGATE_OID4VCI_WALLET_ATTESTATION', d.requireWalletAttestation),
    requireKeyAttestation: flag(env, 'CREDGATE_OID4VCI_KEY_ATTESTATION', d.requireKeyAttestation),
    batchSize: count(env, 'CREDGATE_OID4VCI_BATCH_SIZE', d.batchSize, 1, 100),
    deferredInterval: d.deferredInterval,
    testLogin: flag(env, 'CREDGATE_OID4VCI_TEST_LOGIN', d.testLogin),
  });
}
