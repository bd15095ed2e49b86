import type { Endpoint } from './harness';
import { request } from './http';
import { type Outcome, gqlOutcome } from './transports';

type Json = Record<string, any>;

/** The operator page's two reads through REST (what the page calls) or GraphQL (generated SDK). */
export interface WalletConsoleTransport {
  readonly name: string;
  configurations(key: string | undefined): Promise<Outcome<Json>>;
  requestQr(key: string | undefined, id: string): Promise<Outcome<Json>>;
}

function rest(res: { status: number; json: any; text: string }): Outcome<Json> {
  if (res.status === 200) return { ok: true, data: res.json as Json };
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.text).not.toMatch(/\n\s+at /);
  return { ok: false, status: res.status, code: res.json?.code };
}

export function walletConsoleTransports(server: Endpoint): WalletConsoleTransport[] {
  const h = (key: string | undefined): Record<string, string> => (key === undefined ? {} : { 'X-API-Key': key });
  return [
    {
      name: 'REST',
      configurations: async (key) => rest(await request(server.baseUrl, 'GET', '/wallets/api/configurations', { headers: h(key) })),
      requestQr: async (key, id) => rest(await request(server.baseUrl, 'GET', `/wallets/api/presentation-requests/${encodeURIComponent(id)}/qr`, { headers: h(key) })),
    },
    {
      name: 'GraphQL',
      configurations: (key) => gqlOutcome(async () => (await server.sdk(key).offerableConfigurations()).offerableConfigurations as Json),
      requestQr: (key, id) => gqlOutcome(async () => (await server.sdk(key).presentationRequestQr({ id })).presentationRequestQr as Json),
    },
  ];
}
