import type { JsonWebKey } from 'node:crypto';
import { createHmac, randomUUID } from 'node:crypto';
import { DcqlQuery } from 'dcql';
import { parseOpenid4vpAuthorizationResponse, type Openid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { calculateJwkThumbprint, HashAlgorithm, type Jwk } from '@openid4vc/oauth2';
import { AppError, invalidInput, notFound } from '../../errors';
import type { Actor } from '../../domain/tenancy/actor';
import type { Clock, SecretBox } from '../../domain/ports';
import { b64url, decryptWith, ephemeralEncryptionKey, hashCallback, randomToken, RESPONSE_ENC_VALUES, sha256, signJwtWith, refuseVerifyJwt } from './jose';
import { checkPresentations } from './presentation-check';
import { DEFAULT_VERIFICATION_LIMITS, RequestBudget, type VerificationLimits, withBudget } from '../../vc/net/request-budget';
import type { PresentationFormats, RequestSignerOf } from './ports';
import type { ClientIdPrefix, PresentationResult, RequestRecord, RequestRepository, ResponseMode } from './request-record';
import { WalletError } from './wallet-error';
import type { WebhookSender } from './webhook';

export const DEFAULT_REQUEST_TTL_SECONDS = 300;
export const MAX_REQUEST_TTL_SECONDS = 3600;
const CLIENT_ID_PREFIXES: readonly ClientIdPrefix[] = ['x509_san_dns', 'x509_hash', 'redirect_uri'];
const RESPONSE_MODES: readonly ResponseMode[] = ['direct_post', 'direct_post.jwt'];
/** HAIP: request objects are short-lived. */
const REQUEST_OBJECT_TTL_SECONDS = 120;
/** Presentations one vp_token may carry (DCQL `multiple` allows several per query). */
export const MAX_PRESENTATIONS = 16;

export interface CreatePresentationRequestInput {
  readonly dcqlQuery: Record<string, unknown>;
  /** Default direct_post.jwt (HAIP: encrypted responses). */
  readonly responseMode?: string | undefined;
  /** Default x509_san_dns. */
  readonly clientIdPrefix?: string | undefined;
  readonly webhookUrl?: string | undefined;
  readonly expiresInSeconds?: number | undefined;
}

/** What the relying party sees of a request; `webhookSecret` only in the answer that created it. */
export interface PresentationRequestView {
  readonly id: string;
  readonly status: RequestRecord['status'];
  readonly clientId: string;
  readonly clientIdPrefix: ClientIdPrefix;
  readonly responseMode: ResponseMode;
  readonly dcqlQuery: Record<string, unknown>;
  /** The link (or QR code content) a wallet opens: `openid4vp://?client_id=…&request_uri=…`. */
  readonly authorizationRequest: string;
  readonly requestUri: string | null;
  readonly responseUri: string;
  readonly expiresAt: string;
  readonly createdAt: string;
  readonly respondedAt: string | null;
  readonly webhookUrl: string | null;
  readonly webhookStatus: RequestRecord['webhookStatus'];
  readonly result: PresentationResult | null;
}

export interface CreatedPresentationRequest extends PresentationRequestView {
  /** The HMAC-SHA256 key of the webhook's X-Credgate-Signature; shown once. */
  readonly webhookSecret: string | null;
}

interface Secrets {
  readonly encryptionKey?: JsonWebKey;
  readonly webhookSecret?: string;
}

export interface VerifierDeps {
  readonly repo: RequestRepository;
  readonly box: SecretBox;
  readonly clock: Clock;
  readonly publicUrl: string;
  readonly formats: PresentationFormats;
  /** The tenant's request-signing key (x509 prefixes); absent: only redirect_uri requests. */
  readonly requestSigner?: RequestSignerOf;
  readonly webhooks: WebhookSender;
  /** CREDGATE_VERIFY_*: one budget (fetches, bytes, deadline, decoded bytes) for all the credentials of one response (habit 14). */
  readonly limits?: VerificationLimits;
}

const secretsContext = (id: string): string => `oid4vp-request|${id}`;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The OID4VP 1.0 verifier: relying parties create presentation requests from a DCQL query;
 * wallets fetch the request object by reference and post their response; the result waits for the
 * relying party (and is pushed to its webhook). Protocol logic is oid4vc-ts's Openid4vpVerifier,
 * with our own crypto callbacks; credentials are verified by their format modules.
 */
export class Oid4vpVerifierService {
  constructor(private readonly d: VerifierDeps) {}

  private paths(id: string): { requestUri: string; responseUri: string } {
    return { requestUri: `${this.d.publicUrl}/oid4vp/request-objects/${id}`, responseUri: `${this.d.publicUrl}/oid4vp/responses/${id}` };
  }

  /** Creates a presentation request of the caller's tenant. */
  async create(actor: Actor, input: CreatePresentationRequestInput): Promise<CreatedPresentationRequest> {
    const query = this.parseQuery(input.dcqlQuery);
    const responseMode = (input.responseMode ?? 'direct_post.jwt') as ResponseMode;
    if (!RESPONSE_MODES.includes(responseMode)) throw invalidInput(`responseMode must be one of ${RESPONSE_MODES.join(', ')}`, [{ field: 'responseMode', message: `one of ${RESPONSE_MODES.join(', ')}` }]);
    const prefix = (input.clientIdPrefix ?? 'x509_san_dns') as ClientIdPrefix;
    if (!CLIENT_ID_PREFIXES.includes(prefix)) throw invalidInput(`clientIdPrefix must be one of ${CLIENT_ID_PREFIXES.join(', ')}`, [{ field: 'clientIdPrefix', message: `one of ${CLIENT_ID_PREFIXES.join(', ')}` }]);
    const ttl = input.expiresInSeconds ?? DEFAULT_REQUEST_TTL_SECONDS;
    if (!Number.isInteger(ttl) || ttl < 30 || ttl > MAX_REQUEST_TTL_SECONDS) throw invalidInput(`expiresInSeconds must be an integer from 30 to ${MAX_REQUEST_TTL_SECONDS}`, [{ field: 'expiresInSeconds', message: `30 to ${MAX_REQUEST_TTL_SECONDS}` }]);
    const webhookUrl = input.webhookUrl === undefined ? undefined : this.d.webhooks.checkUrl(input.webhookUrl);

    const id = randomUUID();
    const { responseUri } = this.paths(id);
    const clientId = await this.clientIdFor(actor.tenantId, prefix, responseUri);
    const encryption = responseMode === 'direct_post.jwt' ? ephemeralEncryptionKey(randomToken(12)) : undefined;
    const webhookSecret = webhookUrl !== undefined ? randomToken(32) : undefined;
    const secrets: Secrets = { ...(encryption ? { encryptionKey: encryption.privateJwk } : {}), ...(webhookSecret ? { webhookSecret } : {}) };
    const plain = new TextEncoder().encode(JSON.stringify(secrets));
    const sealed = this.d.box.seal(plain, secretsContext(id));
    plain.fill(0);
    const now = this.d.clock.now();
    const record = await this.d.repo.create(
      {
        id,
        tenantId: actor.tenantId,
        state: randomToken(32),
        nonce: randomToken(32),
        clientId,
        clientIdPrefix: prefix,
        responseMode,
        dcqlQuery: query as unknown as Record<string, unknown>,
        encryptionJwk: encryption?.publicJwk ?? null,
        webhookUrl: webhookUrl ?? null,
        webhookStatus: webhookUrl !== undefined ? 'pending' : null,
        expiresAt: new Date(now.getTime() + ttl * 1000),
      },
      sealed,
    );
    return { ...(await this.view(record)), webhookSecret: webhookSecret ?? null };
  }

  /** A request of the caller's tenant with its result (null while the wallet has not answered). */
  async get(actor: Actor, id: string): Promise<PresentationRequestView> {
    return this.view(await this.own(actor, id));
  }

  private async own(actor: Actor, id: string): Promise<RequestRecord> {
    const record = /^[0-9a-f-]{36}$/i.test(id) ? await this.d.repo.findForTenant(actor.tenantId, id) : null;
    if (!record) throw notFound('presentation request');
    return record;
  }

  private parseQuery(raw: Record<string, unknown>): DcqlQuery {
    let query: DcqlQuery;
    try {
      query = DcqlQuery.parse(raw as DcqlQuery.Input);
      DcqlQuery.validate(query);
    } catch (e) {
      throw invalidInput(`dcqlQuery is not a valid DCQL query: ${e instanceof Error ? e.message.split('\n')[0] : 'invalid'}`, [{ field: 'dcqlQuery', message: 'not a valid DCQL query (OID4VP 1.0 §6)' }]);
    }
    for (const c of query.credentials) {
      // Looked up in the format registry: a format nobody here verifies is refused before a wallet sees the request.
      if (!this.d.formats.forDcqlFormat(c.format)) throw invalidInput(`credential query ${c.id}: format ${c.format} is not supported (${Object.keys(this.d.formats.vpFormatsSupported()).join(', ')})`, [{ field: 'dcqlQuery', message: `unsupported format ${c.format}` }]);
    }
    return query;
  }

  private async clientIdFor(tenantId: string, prefix: ClientIdPrefix, responseUri: string): Promise<string> {
    if (prefix === 'redirect_uri') return `redirect_uri:${responseUri}`;
    if (!this.d.requestSigner) throw invalidInput(`${prefix} needs a request-signing certificate, which this deployment does not have; use redirect_uri`, [{ field: 'clientIdPrefix', message: 'no request-signing key' }]);
    const signer = await this.d.requestSigner(tenantId);
    const leaf = signer.x5c?.[0];
    if (!leaf) throw new AppError('SERVICE_UNAVAILABLE', 'the request-signing key has no certificate chain');
    if (prefix === 'x509_hash') return `x509_hash:${b64url(sha256(Buffer.from(leaf, 'base64')))}`;
    // x509_san_dns: the leaf's SAN dNSName is the host of the public URL (src/services/oid4vc-keys.service.ts).
    return `x509_san_dns:${new URL(this.d.publicUrl).hostname}`;
  }

  /** The authorization request payload (what the request object carries). */
  private payload(r: RequestRecord, walletNonce?: string): Openid4vpAuthorizationRequest {
    const { responseUri } = this.paths(r.id);
    const encrypted = r.responseMode === 'direct_post.jwt' && r.encryptionJwk;
    return {
      response_type: 'vp_token',
      client_id: r.clientId,
      response_uri: responseUri,
      response_mode: r.responseMode,
      nonce: r.nonce,
      state: r.state,
      dcql_query: r.dcqlQuery,
      client_metadata: {
        vp_formats_supported: this.d.formats.vpFormatsSupported(),
        ...(encrypted
          ? {
              jwks: { keys: [r.encryptionJwk as Jwk] },
              encrypted_response_enc_values_supported: [...RESPONSE_ENC_VALUES],
              // Draft-era names, for wallets on older oid4vc-ts and Credo versions.
              authorization_encrypted_response_alg: 'ECDH-ES',
              authorization_encrypted_response_enc: 'A128GCM',
            }
          : {}),
      },
      ...(walletNonce !== undefined ? { wallet_nonce: walletNonce } : {}),
    } as Openid4vpAuthorizationRequest;
  }

  private async view(r: RequestRecord): Promise<PresentationRequestView> {
    const { requestUri, responseUri } = this.paths(r.id);
    let authorizationRequest: string;
    if (r.clientIdPrefix === 'redirect_uri') {
      // redirect_uri requests cannot be signed (OID4VP 1.0 §5.9.3): passed by value, objects as JSON.
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(this.payload(r))) if (v !== undefined && v !== null) params.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
      authorizationRequest = `openid4vp://?${params.toString()}`;
    } else {
      authorizationRequest = `openid4vp://?${new URLSearchParams({ client_id: r.clientId, request_uri: requestUri }).toString()}`;
    }
    return {
      id: r.id,
      status: r.status,
      clientId: r.clientId,
      clientIdPrefix: r.clientIdPrefix,
      responseMode: r.responseMode,
      dcqlQuery: r.dcqlQuery,
      authorizationRequest,
      requestUri: r.clientIdPrefix === 'redirect_uri' ? null : requestUri,
      responseUri,
      expiresAt: r.expiresAt.toISOString(),
      createdAt: r.createdAt.toISOString(),
      respondedAt: r.respondedAt?.toISOString() ?? null,
      webhookUrl: r.webhookUrl,
      webhookStatus: r.webhookStatus,
      result: r.result,
    };
  }

  private async pending(id: string): Promise<RequestRecord> {
    const r = /^[0-9a-f-]{36}$/i.test(id) ? await this.d.repo.find(id) : null;
    if (!r) throw new WalletError('invalid_request', 'no such presentation request', 404);
    if (r.respondedAt !== null) throw new WalletError('invalid_request', 'this presentation request was already answered');
    if (r.expiresAt.getTime() <= this.d.clock.now().getTime()) throw new WalletError('invalid_request', 'this presentation request has expired');
    return r;
  }

  /**
   * The signed request object (typ oauth-authz-req+jwt, x5c) of a request passed by reference.
   * `walletNonce`: request_uri_method=post (OID4VP 1.0 §5.10), echoed in the object.
   */
  async requestObject(id: string, walletNonce?: string): Promise<string> {
    const r = await this.pending(id);
    if (r.clientIdPrefix === 'redirect_uri') throw new WalletError('invalid_request', 'this request is passed by value, not by reference', 404);
    if (walletNonce !== undefined && (walletNonce.length === 0 || walletNonce.length > 256)) throw new WalletError('invalid_request', 'wallet_nonce must be 1 to 256 characters');
    if (!this.d.requestSigner) throw new WalletError('invalid_request', 'no request-signing key', 503);
    const signer = await this.d.requestSigner(r.tenantId);
    // RFC 9101 / OID4VP 1.0 §5: typ oauth-authz-req+jwt, x5c of the request-signing key. Built
    // here rather than by the library's createOpenId4vpAuthorizationRequest, which insists on https
    // URLs unless a process-wide switch is set (the tests' loopback service is http).
    const iat = Math.floor(this.d.clock.now().getTime() / 1000);
    const header = { alg: 'ES256', typ: 'oauth-authz-req+jwt', x5c: signer.x5c ?? [] };
    // Static discovery (OID4VP 1.0 §5.8): the audience of a request object is this value.
    const payload = { iat, exp: iat + REQUEST_OBJECT_TTL_SECONDS, aud: 'https://self-issued.me/v2', ...this.payload(r, walletNonce) };
    const { jwt } = await signJwtWith(signer)({ method: 'x5c', x5c: header.x5c, alg: 'ES256' }, { header, payload } as never);
    return jwt;
  }

  /**
   * The response endpoint: a wallet's direct_post (vp_token, state) or direct_post.jwt (response,
   * an ECDH-ES JWE to the request's key). Protocol mistakes are WalletErrors and change nothing;
   * a well-formed response consumes the request's state and nonce once and stores the result.
   */
  async respond(id: string, body: Record<string, unknown>): Promise<{ verified: boolean }> {
    const r = await this.pending(id);
    const encrypted = typeof body['response'] === 'string';
    if (r.responseMode === 'direct_post.jwt' && !encrypted) throw new WalletError('invalid_request', 'this request asked for an encrypted response (direct_post.jwt): send `response`, a JWE');
    if (r.responseMode === 'direct_post' && encrypted) throw new WalletError('invalid_request', 'this request asked for direct_post: send vp_token and state');
    if (encrypted && (body['response'] as string).split('.').length !== 5) throw new WalletError('invalid_request', '`response` must be a compact JWE encrypted to the request key (signed-only responses are refused)');
    const sealed = await this.d.repo.sealedSecrets(r.id);
    const secrets: Secrets = sealed ? (JSON.parse(new TextDecoder().decode(this.d.box.open(sealed, secretsContext(r.id)))) as Secrets) : {};
    const requestPayload = this.payload(r);
    const decryptJwe = secrets.encryptionKey && r.encryptionJwk ? decryptWith(secrets.encryptionKey, r.encryptionJwk) : () => ({ decrypted: false as const });
    let parsed: Awaited<ReturnType<typeof parseOpenid4vpAuthorizationResponse>>;
    try {
      parsed = await parseOpenid4vpAuthorizationResponse({ authorizationResponse: body, authorizationRequestPayload: requestPayload, callbacks: { decryptJwe, verifyJwt: refuseVerifyJwt } });
    } catch (e) {
      throw new WalletError('invalid_request', `the authorization response was refused: ${e instanceof Error ? e.message.split('\n')[0] : 'malformed'}`);
    }
    if (parsed.type !== 'dcql') throw new WalletError('invalid_request', 'a DCQL vp_token is expected');
    const presentations = parsed.dcql.presentations as Record<string, (string | Record<string, unknown>)[]>;
    const count = Object.values(presentations).reduce((n, list) => n + list.length, 0);
    if (count > MAX_PRESENTATIONS) throw new WalletError('invalid_request', `at most ${MAX_PRESENTATIONS} presentations in one vp_token`);
    const jwkThumbprint = r.encryptionJwk ? await calculateJwkThumbprint({ jwk: r.encryptionJwk as Jwk, hashAlgorithm: HashAlgorithm.Sha256, hashCallback }) : undefined;
    const now = this.d.clock.now();
    // Every status list, DID and certificate the presentations make us read counts against one budget.
    const budget = new RequestBudget(this.d.limits ?? DEFAULT_VERIFICATION_LIMITS);
    const checked = await withBudget(budget, () => checkPresentations(DcqlQuery.parse(r.dcqlQuery as DcqlQuery.Input), presentations, {
      formats: this.d.formats,
      clientId: r.clientId,
      nonce: r.nonce,
      responseUri: this.paths(r.id).responseUri,
      ...(jwkThumbprint ? { jwkThumbprint: Buffer.from(jwkThumbprint, 'base64url') } : {}),
      now,
    }));
    const result: PresentationResult = { ...checked, receivedAt: now.toISOString() };
    if (!(await this.d.repo.complete(r.id, result, now))) throw new WalletError('invalid_request', 'this presentation request was already answered');
    if (r.webhookUrl && secrets.webhookSecret) this.d.webhooks.deliver(r.id, r.webhookUrl, secrets.webhookSecret, { id: r.id, status: result.verified ? 'verified' : 'failed', result });
    return { verified: result.verified };
  }
}

/** X-Credgate-Signature of a webhook body: `sha256=` + hex HMAC-SHA256 under the request's secret. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export { isRecord };
