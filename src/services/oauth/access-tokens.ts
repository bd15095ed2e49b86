import { randomUUID } from 'node:crypto';
import { SignJWT, createLocalJWKSet, errors, jwtVerify } from 'jose';
import { AppError } from '../../errors';
import type { Clock } from '../../domain/ports';
import { type Scope, isScope } from '../../domain/tenancy/actor';
import type { PublicJwk, TokenKeys } from './token-keys';

/** RFC 9068: the JWT profile of OAuth 2.0 access tokens is typed `at+jwt`. */
const TOKEN_TYP = 'at+jwt';
const ALG = 'EdDSA';
/** Far above any token this service signs (~500 bytes); longer input is refused before parsing. */
const MAX_TOKEN_LENGTH = 4096;
/** Instances of one deployment may disagree on the time by a little. */
const CLOCK_TOLERANCE_SECONDS = 5;

/** What a verified access token says; the caller still checks the key it names (revocation). */
export interface AccessTokenClaims {
  /** The API key id (the OAuth client id). */
  readonly sub: string;
  /** The tenant slug of the key. */
  readonly tenant: string;
  /** The granted scopes, a subset of the key's. */
  readonly scopes: readonly Scope[];
  readonly jti: string;
}

export interface IssuedAccessToken {
  readonly token: string;
  readonly expiresIn: number;
}

const invalidToken = (message: string): AppError => new AppError('INVALID_TOKEN', message);

/**
 * Signs and checks the service's access tokens: short-lived JWTs (RFC 9068 profile) signed with
 * an Ed25519 key derived from the master key. Verification pins the algorithm, the key set,
 * the issuer, the audience and the type, so `alg: none`, HMAC with the public key, a token of
 * another issuer or for another audience, and an ID token passed as an access token all fail.
 */
export class AccessTokens {
  private readonly keySet: ReturnType<typeof createLocalJWKSet>;

  constructor(
    private readonly keys: TokenKeys,
    /** iss and aud: the service's public URL (it is both the authorization and the resource server). */
    private readonly issuer: string,
    private readonly audience: string,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
  ) {
    this.keySet = createLocalJWKSet({ keys: keys.verifying.map((k) => ({ ...k.publicJwk })) });
  }

  /** The public keys, for GET /oauth/jwks. */
  jwks(): { keys: PublicJwk[] } {
    return { keys: this.keys.verifying.map((k) => k.publicJwk) };
  }

  get issuerId(): string {
    return this.issuer;
  }

  async issue(subject: { apiKeyId: string; tenantSlug: string; scopes: readonly Scope[] }): Promise<IssuedAccessToken> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const { signing } = this.keys;
    const token = await new SignJWT({ tenant: subject.tenantSlug, scope: subject.scopes.join(' '), client_id: subject.apiKeyId })
      .setProtectedHeader({ alg: ALG, typ: TOKEN_TYP, kid: signing.kid })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(subject.apiKeyId)
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlSeconds)
      .setJti(randomUUID())
      .sign(signing.privateKey);
    return { token, expiresIn: this.ttlSeconds };
  }

  /** The token's claims; any defect is INVALID_TOKEN, and the message never says which check failed. */
  async verify(token: string): Promise<AccessTokenClaims> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw invalidToken('invalid access token');
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.keySet, {
        algorithms: [ALG],
        issuer: this.issuer,
        audience: this.audience,
        typ: TOKEN_TYP,
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
        currentDate: this.clock.now(),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch (e) {
      // Verification is local (no key fetch, no I/O): every failure is a defect of the token.
      throw invalidToken(e instanceof errors.JWTExpired ? 'the access token has expired' : 'invalid access token');
    }
    const { sub, tenant, scope, jti } = payload;
    if (typeof sub !== 'string' || typeof tenant !== 'string' || typeof scope !== 'string' || typeof jti !== 'string') {
      throw invalidToken('invalid access token');
    }
    const scopes = scope.split(' ');
    if (!scopes.every(isScope)) throw invalidToken('invalid access token');
    return { sub, tenant, scopes, jti };
  }
}
