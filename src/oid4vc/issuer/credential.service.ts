import type { JsonWebKey } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { Oauth2ServerErrorResponseError } from '@openid4vc/oauth2';
import { isAppError } from '../../errors';
import { authorizeWallet } from './access';
import type { CredentialConfiguration } from './configurations';
import type { IssuerRuntime, TenantIssuer } from './context';
import { Oid4vciError } from './errors';
import type { WalletRequest } from './http-request';
import { credentialIssuerMetadata } from './metadata';
import type { CredentialRef, NotificationEvent, OfferRecord } from './ports';
import { newSecret, secretHash } from './secrets';
import { verifyKeyProof, x5cOfJwt } from './key-proof';

type Credential = string | Record<string, unknown>;

export interface CredentialAnswer {
  /** 200 with credentials, 202 with a transaction_id (deferred). */
  readonly status: 200 | 202;
  readonly body: Record<string, unknown>;
}

const NOTIFICATION_EVENTS: ReadonlySet<string> = new Set(['credential_accepted', 'credential_failure', 'credential_deleted']);

/**
 * The nonce, credential, deferred credential and notification endpoints (OID4VCI 1.0 §7-§11).
 * Key proofs are `openid4vci-proof+jwt` JWTs checked by oid4vc-ts (signature, aud = issuer,
 * nonce) plus our `iat` window; each c_nonce is single use. A refused request stores nothing.
 */
export class CredentialService {
  constructor(private readonly rt: IssuerRuntime) {}

  /** A fresh single-use c_nonce (§7.2). */
  async nonce(slug: string): Promise<{ c_nonce: string }> {
    await this.rt.tenant(slug);
    const nonce = newSecret();
    await this.rt.deps.store.createNonce(secretHash(nonce), 'c_nonce', new Date(this.rt.now().getTime() + this.rt.deps.settings.nonceTtlSeconds * 1000));
    // Expired nonces and DPoP proofs are swept on the way; none of it is in the answer's path.
    void this.rt.deps.store.sweep(this.rt.now()).catch(() => undefined);
    return this.rt.vci.createNonceResponse({ cNonce: nonce }) as { c_nonce: string };
  }

  async credential(slug: string, request: WalletRequest, body: unknown): Promise<CredentialAnswer> {
    const t = await this.rt.tenant(slug);
    const token = await authorizeWallet(this.rt, t, request);
    const offer = await this.rt.deps.store.findOffer(t.tenantId, token.offerId);
    if (!offer || offer.revokedAt) throw new Oid4vciError('invalid_token', 'the offer of this access token was revoked', { 'WWW-Authenticate': 'DPoP error="invalid_token"' }, 401);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Oid4vciError('invalid_credential_request', 'the credential request must be a JSON object');
    const metadata = await credentialIssuerMetadata(this.rt, t);
    const configurations = await this.rt.configurations(t);
    const configuration = this.configurationOf(body as Record<string, unknown>, configurations, offer);
    const format = this.rt.format(configuration.format);
    if (!format) throw new Oid4vciError('unsupported_credential_format', `format ${configuration.format} cannot be issued here`);
    let parsed: ReturnType<IssuerRuntime['vci']['parseCredentialRequest']>;
    try {
      parsed = this.rt.vci.parseCredentialRequest({
        credentialRequest: body as Record<string, unknown>,
        issuerMetadata: { credentialIssuer: metadata, authorizationServers: [], knownCredentialConfigurations: Object.fromEntries(configurations.map((c) => [c.id, c.metadata])) } as never,
      });
    } catch (e) {
      if (e instanceof Oauth2ServerErrorResponseError) throw new Oid4vciError('invalid_credential_request', e.errorResponse.error_description ?? 'invalid credential request');
      throw e;
    }
    const jwts = parsed.proofs?.jwt ?? [];
    if (parsed.proofs?.attestation) throw new Oid4vciError('invalid_proof', 'attestation proofs are not supported; send proofs.jwt');
    if (jwts.length === 0) throw new Oid4vciError('invalid_proof', 'proofs.jwt is required (the credential is bound to your key)');
    if (jwts.length > this.rt.deps.settings.batchSize) throw new Oid4vciError('invalid_credential_request', `at most ${this.rt.deps.settings.batchSize} proofs per request`);
    const holderKeys = await this.checkProofs(t, jwts, token.clientId);

    const notificationId = randomUUID();
    const now = this.rt.now();
    if (offer.deferred && offer.readyAt === null) {
      // Deferred (§9): the keys are kept with the transaction; the credentials are minted when it is ready.
      const transactionId = newSecret();
      await this.rt.deps.store.recordIssuance({ notificationId, tenantId: t.tenantId, offerId: offer.id, configurationId: configuration.id, format: configuration.format, holderKeys, credentialRefs: [], issuedAt: null, transactionIdHash: secretHash(transactionId) });
      return { status: 202, body: { transaction_id: transactionId, interval: this.rt.deps.settings.deferredInterval } };
    }
    const minted = await this.mint(t, configuration, offer, holderKeys);
    await this.rt.deps.store.recordIssuance({ notificationId, tenantId: t.tenantId, offerId: offer.id, configurationId: configuration.id, format: configuration.format, holderKeys, credentialRefs: minted.refs, issuedAt: now, transactionIdHash: null });
    return {
      status: 200,
      body: this.rt.vci.createCredentialResponse({ credentialRequest: parsed, credentials: minted.credentials.map((credential) => ({ credential })), notificationId } as never) as Record<string, unknown>,
    };
  }

  /** The deferred credential endpoint (§9): credentials once ready, `issuance_pending` before. */
  async deferred(slug: string, request: WalletRequest, body: unknown): Promise<CredentialAnswer> {
    const t = await this.rt.tenant(slug);
    const token = await authorizeWallet(this.rt, t, request);
    const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['transaction_id'] : undefined;
    if (typeof id !== 'string' || id.length === 0) throw new Oid4vciError('invalid_credential_request', 'transaction_id is required');
    const issuance = await this.rt.deps.store.findIssuanceByTransaction(secretHash(id));
    if (!issuance || issuance.tenantId !== t.tenantId || issuance.offerId !== token.offerId || issuance.issuedAt) throw new Oid4vciError('invalid_transaction_id', 'unknown or already delivered transaction_id');
    const offer = await this.rt.deps.store.findOffer(t.tenantId, issuance.offerId);
    if (!offer || offer.revokedAt) throw new Oid4vciError('credential_request_denied', 'the offer was revoked');
    if (offer.readyAt === null) {
      return { status: 202, body: { transaction_id: id, interval: this.rt.deps.settings.deferredInterval } };
    }
    const configuration = (await this.rt.configurations(t)).find((c) => c.id === issuance.configurationId);
    if (!configuration) throw new Oid4vciError('credential_request_denied', 'the credential configuration no longer exists');
    const minted = await this.mint(t, configuration, offer, issuance.holderKeys);
    if (!(await this.rt.deps.store.completeDeferred(secretHash(id), minted.refs, this.rt.now()))) throw new Oid4vciError('invalid_transaction_id', 'unknown or already delivered transaction_id');
    // No notification_id here: oid4vc-ts 0.4.6's client refuses a deferred response carrying one
    // beside credentials (its schema inverts OID4VCI 1.0 §9.2), and that client is what wallets use.
    return { status: 200, body: { credentials: minted.credentials.map((credential) => ({ credential })) } };
  }

  /** The notification endpoint (§11): the wallet says what became of the credentials. */
  async notification(slug: string, request: WalletRequest, body: unknown): Promise<void> {
    const t = await this.rt.tenant(slug);
    const token = await authorizeWallet(this.rt, t, request);
    const b = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const id = b['notification_id'];
    const event = b['event'];
    const description = b['event_description'];
    if (typeof id !== 'string' || typeof event !== 'string' || !NOTIFICATION_EVENTS.has(event)) throw new Oid4vciError('invalid_notification_request', 'notification_id and an event (credential_accepted, credential_failure, credential_deleted) are required');
    if (description !== undefined && (typeof description !== 'string' || description.length > 1000)) throw new Oid4vciError('invalid_notification_request', 'event_description must be a short string');
    const issuance = await this.rt.deps.store.findIssuance(id);
    if (!issuance || issuance.tenantId !== t.tenantId || issuance.offerId !== token.offerId) throw new Oid4vciError('invalid_notification_id', 'unknown notification_id');
    await this.rt.deps.store.recordNotification(id, event as NotificationEvent, typeof description === 'string' ? description : null, this.rt.now());
  }

  private configurationOf(body: Record<string, unknown>, configurations: readonly CredentialConfiguration[], offer: OfferRecord): CredentialConfiguration {
    const id = body['credential_configuration_id'];
    if (body['format'] !== undefined && id === undefined) throw new Oid4vciError('unsupported_credential_format', 'name a credential_configuration_id (format-based requests are not supported)');
    if (typeof id !== 'string') {
      if (body['credential_identifier'] !== undefined) throw new Oid4vciError('invalid_credential_request', 'credential_identifier is not used by this issuer; send credential_configuration_id');
      throw new Oid4vciError('invalid_credential_request', 'credential_configuration_id is required');
    }
    const configuration = configurations.find((c) => c.id === id);
    if (!configuration) throw new Oid4vciError('unknown_credential_configuration', `unknown credential configuration ${id}`);
    if (!offer.configurationIds.includes(id)) throw new Oid4vciError('unknown_credential_configuration', `the offer of this access token does not cover ${id}`);
    return configuration;
  }

  /** Checks every key proof; the nonce of each is spent. Returns the holder keys, in order. */
  /**
   * The key attestation policy: the proof's `key_attestation` must be a key attestation JWT
   * (oid4vc-ts checks its shape, signature by its x5c and freshness) that attests this very key.
   */
  private async checkKeyAttestation(attestation: string | undefined, holderJwk: JsonWebKey, now: Date): Promise<void> {
    if (!attestation) throw new Oid4vciError('invalid_proof', 'a key attestation (key_attestation header) is required');
    // Like wallet attestations: only a chain to the deployment's anchors makes the attestation
    // someone's word about the key's storage (a self-signed one is the wallet vouching for itself).
    const x5c = x5cOfJwt(attestation);
    const trust = this.rt.deps.walletTrust;
    if (!trust || !x5c) throw new Oid4vciError('invalid_proof', 'the key attestation is not signed by a trusted wallet provider (x5c)');
    try {
      await trust({ x5c });
    } catch {
      throw new Oid4vciError('invalid_proof', 'the key attestation is not signed by a trusted wallet provider (x5c)');
    }
    let attested: readonly Record<string, unknown>[];
    try {
      const verified = await this.rt.vci.verifyCredentialRequestAttestationProof({ keyAttestationJwt: attestation, now } as never);
      attested = (verified as { payload: { attested_keys: Record<string, unknown>[] } }).payload.attested_keys;
    } catch (e) {
      throw new Oid4vciError('invalid_proof', e instanceof Oauth2ServerErrorResponseError ? (e.errorResponse.error_description ?? 'invalid key attestation') : 'invalid key attestation');
    }
    if (!attested.some((k) => k['x'] === holderJwk.x && k['y'] === holderJwk.y)) throw new Oid4vciError('invalid_proof', 'the key attestation does not attest the proof key');
  }

  private async checkProofs(t: TenantIssuer, jwts: readonly string[], clientId: string | null): Promise<JsonWebKey[]> {
    const keys: JsonWebKey[] = [];
    const thumbprints = new Set<string>();
    const window = this.rt.deps.settings.proofWindowSeconds;
    const now = this.rt.now();
    for (const jwt of jwts) {
      const proof = verifyKeyProof(jwt, { issuer: t.issuer, nowSeconds: Math.floor(now.getTime() / 1000), windowSeconds: window, clientId });
      if (this.rt.deps.settings.requireKeyAttestation) await this.checkKeyAttestation(proof.keyAttestation, proof.holderJwk, now);
      if (proof.nonce === undefined) throw new Oid4vciError('invalid_nonce', 'the proof needs a c_nonce from the nonce endpoint');
      // Spent here, even if a later proof of the batch fails: a nonce never serves twice.
      if (!(await this.rt.deps.store.consumeNonce(secretHash(proof.nonce), 'c_nonce', now))) throw new Oid4vciError('invalid_nonce', 'the c_nonce is unknown, spent or expired; get a fresh one');
      const jwk = proof.holderJwk;
      const thumb = JSON.stringify([jwk.crv, jwk.x, jwk.y]);
      if (thumbprints.has(thumb)) throw new Oid4vciError('invalid_proof', 'each proof of a batch must be by a different key');
      thumbprints.add(thumb);
      keys.push({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } as JsonWebKey);
    }
    return keys;
  }

  private async mint(t: TenantIssuer, configuration: CredentialConfiguration, offer: OfferRecord, holderKeys: readonly JsonWebKey[]): Promise<{ credentials: Credential[]; refs: CredentialRef[] }> {
    const format = this.rt.format(configuration.format);
    if (!format) throw new Oid4vciError('unsupported_credential_format', `format ${configuration.format} cannot be issued here`);
    const credentials: Credential[] = [];
    const refs: CredentialRef[] = [];
    for (const holderJwk of holderKeys) {
      try {
        const out = await format.issue({ tenantId: t.tenantId, issuer: t.issuer, configurationId: configuration.id, source: configuration.source, metadata: configuration.metadata, claims: offer.claims, holderJwk });
        credentials.push(out.credential);
        refs.push(out.ref);
      } catch (e) {
        // The offer's claims do not fit the configuration (a template changed since): the wallet cannot fix that.
        if (isAppError(e) && e.status < 500) throw new Oid4vciError('credential_request_denied', e.message);
        throw e;
      }
    }
    return { credentials, refs };
  }
}
