import { randomUUID } from 'node:crypto';
import { AppError, invalidInput } from '../../errors';
import type { Actor } from '../../domain/tenancy/actor';
import type { IssuerRuntime } from './context';
import { endpointsOf } from './metadata';
import { offerQrCodes } from './qr';
import { issuerStateOf, preAuthorizedCodeOf } from './offer-codes';
import type { OfferRecord, OfferStatus, SubjectClaims } from './ports';
import { newSecret, newTxCode, secretHash } from './secrets';

export type OfferGrant = 'pre-authorized_code' | 'authorization_code';

export interface CreateOfferInput {
  readonly credentialConfigurationIds: readonly string[];
  /** The subject's claims the credentials will carry. */
  readonly claims: SubjectClaims;
  /** Default: pre-authorized_code. */
  readonly grants?: readonly OfferGrant[];
  /** Ask the wallet for a numeric transaction code of this many digits (pre-authorized only). */
  readonly txCodeLength?: number;
  /** The offer object behind `credential_offer_uri` instead of in the link. */
  readonly byReference?: boolean;
  /** The credential is issued later: the wallet gets a transaction_id until the offer is marked ready. */
  readonly deferred?: boolean;
  readonly expiresInSeconds?: number;
}

/** An offer as the issuer's operator sees it (never a code or tx_code: those are shown once). */
export interface OfferView {
  readonly id: string;
  readonly status: OfferStatus;
  readonly credentialConfigurationIds: readonly string[];
  readonly txCodeRequired: boolean;
  readonly locked: boolean;
  readonly deferred: boolean;
  readonly ready: boolean;
  readonly expiresAt: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly revokedAt: string | null;
}

/** What creation answers: the view plus the one-time secrets and their renderings. */
export interface CreatedOffer extends OfferView {
  readonly grants: readonly OfferGrant[];
  /** `openid-credential-offer://?credential_offer=…` or `…?credential_offer_uri=…`. */
  readonly offerUri: string;
  readonly credentialOffer: Record<string, unknown>;
  readonly credentialOfferUri: string | null;
  /** The transaction code to pass to the user on another channel; null without one. */
  readonly txCode: string | null;
  readonly qrSvg: string;
  /** `data:image/png;base64,…` */
  readonly qrPng: string;
}

export interface OfferPage {
  readonly items: OfferView[];
  readonly hasMore: boolean;
  readonly next: string | null;
}

const MAX_CLAIMS_BYTES = 64 * 1024;

function viewOf(o: OfferRecord): OfferView {
  return {
    id: o.id,
    status: o.status,
    credentialConfigurationIds: o.configurationIds,
    txCodeRequired: o.txCodeLength !== null,
    locked: o.lockedAt !== null,
    deferred: o.deferred,
    ready: !o.deferred || o.readyAt !== null,
    expiresAt: o.expiresAt.toISOString(),
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
    revokedAt: o.revokedAt?.toISOString() ?? null,
  };
}

/**
 * The issuer-admin use-cases: create, read, list and revoke credential offers (REST under the API
 * key and GraphQL call these), and mark a deferred offer ready.
 */
export class CredentialOffersService {
  constructor(private readonly rt: IssuerRuntime) {}

  /** Creates an offer for configurations the tenant's issuer advertises; the secrets are in this answer only. */
  async create(actor: Actor, input: CreateOfferInput): Promise<CreatedOffer> {
    const t = { tenantId: actor.tenantId, slug: actor.tenantSlug, issuer: this.rt.issuerUrl(actor.tenantSlug) };
    const ids = [...new Set(input.credentialConfigurationIds)];
    if (ids.length === 0 || ids.length > 20) throw invalidInput('credentialConfigurationIds must name 1 to 20 configurations', [{ field: 'credentialConfigurationIds', message: '1 to 20' }]);
    const known = new Set((await this.rt.configurations(t)).map((c) => c.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw invalidInput(`unknown credential configuration: ${unknown.join(', ')}`, unknown.map((u) => ({ field: 'credentialConfigurationIds', message: `unknown: ${u}` })));
    if (typeof input.claims !== 'object' || input.claims === null || Array.isArray(input.claims)) throw invalidInput('claims must be an object', [{ field: 'claims', message: 'object' }]);
    if (Buffer.byteLength(JSON.stringify(input.claims)) > MAX_CLAIMS_BYTES) throw invalidInput('claims are too large', [{ field: 'claims', message: `at most ${MAX_CLAIMS_BYTES} bytes` }]);
    const grants: OfferGrant[] = [...new Set<OfferGrant>(input.grants ?? ['pre-authorized_code'])];
    if (grants.length === 0) throw invalidInput('grants must name at least one grant', [{ field: 'grants', message: 'empty' }]);
    const preAuthorized = grants.includes('pre-authorized_code');
    const authorization = grants.includes('authorization_code');
    const txLength = input.txCodeLength;
    if (txLength !== undefined && (!Number.isInteger(txLength) || txLength < 4 || txLength > 12)) throw invalidInput('txCodeLength must be 4 to 12', [{ field: 'txCodeLength', message: '4..12' }]);
    if (txLength !== undefined && !preAuthorized) throw invalidInput('a tx_code goes with the pre-authorized code grant', [{ field: 'txCodeLength', message: 'needs pre-authorized_code' }]);
    const ttl = input.expiresInSeconds ?? this.rt.deps.settings.offerTtlSeconds;
    if (!Number.isInteger(ttl) || ttl < 60 || ttl > 90 * 24 * 3600) throw invalidInput('expiresInSeconds must be 60 s to 90 days', [{ field: 'expiresInSeconds', message: 'range' }]);

    const now = this.rt.now();
    const s = newSecret();
    const preAuthorizedCode = preAuthorized ? preAuthorizedCodeOf(s) : null;
    const issuerState = authorization ? issuerStateOf(s) : null;
    const txCode = txLength !== undefined ? newTxCode(txLength) : null;
    const handle = input.byReference ? `${endpointsOf(t.issuer).offer}/${s}` : null;
    const credentialOffer = this.offerObject(t.issuer, ids, preAuthorizedCode, txLength ?? null, issuerState);
    const offerUri = handle
      ? `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(handle)}`
      : `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(credentialOffer))}`;
    // Rendered before anything is stored: an offer too large for a QR code is refused whole.
    const qr = await offerQrCodes(offerUri);
    const record = await this.rt.deps.store.createOffer({
      id: randomUUID(),
      tenantId: actor.tenantId,
      configurationIds: ids,
      claims: input.claims,
      preAuthorizedCodeHash: preAuthorizedCode ? secretHash(preAuthorizedCode) : null,
      txCodeHash: txCode ? secretHash(txCode) : null,
      txCodeLength: txLength ?? null,
      issuerStateHash: issuerState ? secretHash(issuerState) : null,
      deferred: input.deferred === true,
      expiresAt: new Date(now.getTime() + ttl * 1000),
    });
    const credentialOfferUri = handle;
    return { ...viewOf(record), grants, offerUri, credentialOffer, credentialOfferUri, txCode, qrSvg: qr.svg, qrPng: qr.png };
  }

  /** The credential offer object (OID4VCI 1.0 §4.1.1). */
  private offerObject(issuer: string, ids: readonly string[], code: string | null, txLength: number | null, issuerState: string | null): Record<string, unknown> {
    const grants: Record<string, unknown> = {};
    if (code) {
      grants['urn:ietf:params:oauth:grant-type:pre-authorized_code'] = {
        'pre-authorized_code': code,
        ...(txLength !== null ? { tx_code: { input_mode: 'numeric', length: txLength, description: 'the code the issuer sent you' } } : {}),
      };
    }
    if (issuerState) grants['authorization_code'] = { issuer_state: issuerState, authorization_server: issuer };
    return { credential_issuer: issuer, credential_configuration_ids: [...ids], grants };
  }

  /**
   * The offer behind a `credential_offer_uri` (public: the wallet fetches it). Only while its
   * grants are unspent; afterwards the URI is dead.
   */
  async byReference(slug: string, s: string): Promise<Record<string, unknown>> {
    const t = await this.rt.tenant(slug);
    const notFound = new AppError('NOT_FOUND', 'no such credential offer');
    if (!/^[A-Za-z0-9_-]{43}$/.test(s)) throw notFound;
    const code = preAuthorizedCodeOf(s);
    const state = issuerStateOf(s);
    const o = (await this.rt.deps.store.findOfferByPreAuthorizedCode(secretHash(code))) ?? (await this.rt.deps.store.findOfferByIssuerState(secretHash(state)));
    if (!o || o.tenantId !== t.tenantId || o.revokedAt || o.lockedAt || o.expiresAt <= this.rt.now()) throw notFound;
    return this.offerObject(t.issuer, o.configurationIds, o.preAuthorizedCodeHash ? code : null, o.txCodeLength, o.issuerStateHash ? state : null);
  }

  async get(actor: Actor, id: string): Promise<OfferView> {
    const o = await this.find(actor, id);
    return viewOf(o);
  }

  async list(actor: Actor, page: { first?: number; after?: string } = {}): Promise<OfferPage> {
    const first = page.first ?? 50;
    if (!Number.isInteger(first) || first < 1 || first > 200) throw invalidInput('first must be 1 to 200', [{ field: 'first', message: '1..200' }]);
    if (page.after !== undefined && !isUuid(page.after)) throw invalidInput('after must be an offer id', [{ field: 'after', message: 'uuid' }]);
    const { items, hasMore } = await this.rt.deps.store.listOffers(actor.tenantId, { first, ...(page.after ? { after: page.after } : {}) });
    return { items: items.map(viewOf), hasMore, next: hasMore ? (items[items.length - 1]?.id ?? null) : null };
  }

  /**
   * Revokes an offer: its codes and tokens stop working at once, and every credential already
   * issued under it is revoked in its status list (an operator withdrawing an offer withdraws what
   * it produced). Revoking twice is a 409.
   */
  async revoke(actor: Actor, id: string): Promise<OfferView> {
    await this.find(actor, id);
    const o = await this.rt.deps.store.revokeOffer(actor.tenantId, id, this.rt.now());
    if (!o) throw new AppError('CONFLICT', 'the offer is already revoked');
    const listener = this.rt.deps.revocations;
    if (listener) {
      // After the offer's own revocation committed; idempotent, so a retry of a failed flip completes it.
      for (const issuance of await this.rt.deps.store.issuancesOf(id)) {
        for (const ref of issuance.credentialRefs) {
          if (typeof ref['credentialId'] === 'string') await listener.credentialRevoked(actor.tenantId, ref['credentialId']);
        }
      }
    }
    return viewOf(o);
  }

  /** The deferred credential of this offer may now be issued (the built-in readiness hook). */
  async markReady(actor: Actor, id: string): Promise<OfferView> {
    const found = await this.find(actor, id);
    if (!found.deferred) throw new AppError('CONFLICT', 'the offer is not deferred');
    const o = await this.rt.deps.store.markReady(actor.tenantId, id, this.rt.now());
    return viewOf(o ?? found);
  }

  private async find(actor: Actor, id: string): Promise<OfferRecord> {
    if (!isUuid(id)) throw new AppError('NOT_FOUND', 'no such credential offer');
    const o = await this.rt.deps.store.findOffer(actor.tenantId, id);
    if (!o) throw new AppError('NOT_FOUND', 'no such credential offer');
    return o;
  }
}

const isUuid = (s: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
