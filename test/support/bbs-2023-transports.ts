import type { Endpoint } from './harness';
import { request, type HttpResponse } from './http';
import { type Outcome, gqlOutcome } from './transports';
import { expectProblem, graphqlVcApi, restVcApi, type VcApiTransport } from './vc-api-transports';

type Json = Record<string, any>;

/** The VC-API plus POST /credentials/derive (bbs-2023 selective disclosure), through REST or GraphQL via the SDK. */
export interface BbsTransport extends VcApiTransport {
  derive(key: string, body: { verifiableCredential: Json; options?: { selectivePointers?: string[] } }): Promise<Outcome<{ verifiableCredential: Json }>>;
}

function rest<T>(res: HttpResponse, okStatus: number): Outcome<T> {
  if (res.status === okStatus) return { ok: true, data: res.json as T };
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expectProblem(res);
  return { ok: false, status: res.status, code: res.json.code };
}

export function restBbs(server: Endpoint, base = '/vc-api'): BbsTransport {
  return {
    ...restVcApi(server, base),
    derive: async (key, body) => rest(await request(server.baseUrl, 'POST', `${base}/credentials/derive`, { headers: { 'X-API-Key': key }, body }), 201),
  };
}

export function graphqlBbs(server: Endpoint): BbsTransport {
  return {
    ...graphqlVcApi(server),
    derive: (key, body) =>
      gqlOutcome(async () => (await server.sdk(key).vcDeriveCredential({ input: { verifiableCredential: body.verifiableCredential, ...(body.options?.selectivePointers ? { selectivePointers: body.options.selectivePointers } : {}) } })).vcDeriveCredential as { verifiableCredential: Json }),
  };
}
