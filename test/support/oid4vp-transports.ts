import { createCredgateClient } from '../../src/sdk';
import { request } from './http';
import { type Outcome, gqlOutcome } from './transports';

type Json = Record<string, any>;

/** The relying party's OID4VP operations through REST or GraphQL (generated SDK), normalised alike. */
export interface Oid4vpTransport {
  readonly name: string;
  create(key: string, body: Json): Promise<Outcome<Json>>;
  get(key: string, id: string): Promise<Outcome<Json>>;
  /** REST: GET /oid4vp/requests/{id}/result; GraphQL: the same query's status and result. */
  result(key: string, id: string): Promise<Outcome<{ id: string; status: string; result: Json | null }>>;
}

function rest<T>(res: { status: number; json: any; text: string }, ok: number): Outcome<T> {
  if (res.status === ok) return { ok: true, data: res.json as T };
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.text).not.toMatch(/\n\s+at /);
  return { ok: false, status: res.status, code: res.json?.code };
}

export function oid4vpRest(base: string): Oid4vpTransport {
  const h = (key: string) => ({ 'X-API-Key': key });
  return {
    name: 'REST',
    create: async (key, body) => rest(await request(base, 'POST', '/oid4vp/requests', { headers: h(key), body }), 201),
    get: async (key, id) => rest(await request(base, 'GET', `/oid4vp/requests/${encodeURIComponent(id)}`, { headers: h(key) }), 200),
    result: async (key, id) => rest(await request(base, 'GET', `/oid4vp/requests/${encodeURIComponent(id)}/result`, { headers: h(key) }), 200),
  };
}

export function oid4vpGraphql(base: string): Oid4vpTransport {
  const sdk = (apiKey: string) => createCredgateClient({ url: `${base}/graphql`, apiKey });
  return {
    name: 'GraphQL',
    create: (key, body) => gqlOutcome(async () => (await sdk(key).createPresentationRequest({ input: body as any })).createPresentationRequest as Json),
    get: (key, id) => gqlOutcome(async () => (await sdk(key).presentationRequest({ id })).presentationRequest as Json),
    result: (key, id) =>
      gqlOutcome(async () => {
        const r = (await sdk(key).presentationRequest({ id })).presentationRequest;
        return { id: r.id, status: r.status, result: (r.result ?? null) as Json | null };
      }),
  };
}
