import type { Endpoint } from './harness';
import { type HttpResponse, request } from './http';
import { type Outcome, gqlOutcome } from './transports';

type Json = Record<string, any>;

export interface OfferView {
  id: string;
  status: string;
  credentialConfigurationIds: string[];
  txCodeRequired: boolean;
  locked: boolean;
  deferred: boolean;
  ready: boolean;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
}

export interface CreatedOffer extends OfferView {
  grants: string[];
  offerUri: string;
  credentialOffer: Json;
  credentialOfferUri: string | null;
  txCode: string | null;
  qrSvg: string;
  qrPng: string;
}

/** A credential a wallet received under an offer (GET /oid4vci/offers/{id}/credentials). */
export interface IssuedCredential {
  id: string;
  offerId: string;
  configurationId: string;
  format: string;
  status: 'issued' | 'revoked';
  issuedAt: string;
  revokedAt: string | null;
}

export interface CreateOfferBody {
  credentialConfigurationIds: string[];
  claims: Json;
  grants?: string[];
  txCodeLength?: number;
  byReference?: boolean;
  deferred?: boolean;
  expiresInSeconds?: number;
}

/** The issuer-admin operations on OpenID4VCI offers, through REST (Family B envelope) or GraphQL (the SDK). */
export interface OffersTransport {
  readonly name: string;
  create(key: string, body: CreateOfferBody): Promise<Outcome<CreatedOffer>>;
  list(key: string, page?: { first?: number; after?: string }): Promise<Outcome<{ items: OfferView[]; hasMore: boolean; next: string | null }>>;
  get(key: string, id: string): Promise<Outcome<OfferView>>;
  revoke(key: string, id: string): Promise<Outcome<OfferView>>;
  markReady(key: string, id: string): Promise<Outcome<OfferView>>;
  /** The offer's delivered credentials (REST: its items). */
  credentials(key: string, id: string): Promise<Outcome<IssuedCredential[]>>;
}

const headers = (key: string) => ({ 'X-API-Key': key });

function rest<T>(res: HttpResponse, ok: number): Outcome<T> {
  if (res.status === ok) return { ok: true, data: res.json as T };
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(typeof res.json.error).toBe('string');
  expect(res.text).not.toMatch(/\n\s+at /);
  return { ok: false, status: res.status, code: res.json.code };
}

export function restOffers(server: Endpoint): OffersTransport {
  // Read at call time: describe.each builds the transports before the server starts.
  const url = (): string => server.baseUrl;
  return {
    name: 'REST',
    create: async (key, body) => rest(await request(url(), 'POST', '/oid4vci/offers', { headers: headers(key), body }), 201),
    list: async (key, page = {}) => {
      const q = new URLSearchParams();
      if (page.first !== undefined) q.set('first', String(page.first));
      if (page.after !== undefined) q.set('after', page.after);
      return rest(await request(url(), 'GET', `/oid4vci/offers${q.size > 0 ? `?${q}` : ''}`, { headers: headers(key) }), 200);
    },
    get: async (key, id) => rest(await request(url(), 'GET', `/oid4vci/offers/${encodeURIComponent(id)}`, { headers: headers(key) }), 200),
    revoke: async (key, id) => rest(await request(url(), 'DELETE', `/oid4vci/offers/${encodeURIComponent(id)}`, { headers: headers(key) }), 200),
    markReady: async (key, id) => rest(await request(url(), 'POST', `/oid4vci/offers/${encodeURIComponent(id)}/ready`, { headers: headers(key) }), 200),
    credentials: async (key, id) => {
      const out = rest<{ items: IssuedCredential[] }>(await request(url(), 'GET', `/oid4vci/offers/${encodeURIComponent(id)}/credentials`, { headers: headers(key) }), 200);
      return out.ok ? { ok: true, data: out.data.items } : out;
    },
  };
}

export function graphqlOffers(server: Endpoint): OffersTransport {
  return {
    name: 'GraphQL',
    create: (key, body) => gqlOutcome(async () => (await server.sdk(key).createCredentialOffer({ input: body })).createCredentialOffer as CreatedOffer),
    list: (key, page = {}) => gqlOutcome(async () => (await server.sdk(key).credentialOffers({ ...page })).credentialOffers as { items: OfferView[]; hasMore: boolean; next: string | null }),
    get: (key, id) => gqlOutcome(async () => (await server.sdk(key).credentialOffer({ id })).credentialOffer as OfferView),
    revoke: (key, id) => gqlOutcome(async () => (await server.sdk(key).revokeCredentialOffer({ id })).revokeCredentialOffer as OfferView),
    markReady: (key, id) => gqlOutcome(async () => (await server.sdk(key).markCredentialOfferReady({ id })).markCredentialOfferReady as OfferView),
    credentials: (key, id) => gqlOutcome(async () => (await server.sdk(key).credentialOfferCredentials({ id })).credentialOfferCredentials as IssuedCredential[]),
  };
}

export const offerTransports = (server: Endpoint): OffersTransport[] => [restOffers(server), graphqlOffers(server)];
