/** Helpers of the anchoring e2e suites (EVM and Hedera): the anchor status of a head through both transports, and polling. */
import type { TestServer } from './harness';
import { request } from './http';

type Json = Record<string, any>;

export function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => [k, stripNulls(x)]));
}

/** The anchor status of (logId, size) through REST (nulls dropped), or GraphQL. */
export async function anchorStatus(server: TestServer, key: string, logId: string, treeSize: number, via: 'REST' | 'GraphQL' = 'REST'): Promise<Json> {
  if (via === 'GraphQL') return stripNulls((await server.sdk(key).ledgerAnchor({ logId, treeSize })).ledgerAnchor) as Json;
  const rest = await request(server.baseUrl, 'GET', `/ledger/${logId}/anchors/${treeSize}`, { headers: { 'x-api-key': key } });
  if (rest.status !== 200) throw new Error(`GET /ledger/${logId}/anchors/${treeSize} answered ${rest.status}`);
  return stripNulls(rest.json) as Json;
}

/** Polls `read` every 100 ms until `done` (at most a minute). */
export async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** While the ledger is down: each head shows a failed attempt with its error, and no receipt, through both transports. */
export async function expectFailedAttempts(server: TestServer, key: string, heads: readonly { logId: string; treeSize: number }[]): Promise<void> {
  for (const h of heads) {
    for (const via of ['REST', 'GraphQL'] as const) {
      const s = await until('a failed attempt', () => anchorStatus(server, key, h.logId, h.treeSize, via), (x) => x['attempts'] >= 1 && x['lastError'] !== undefined);
      expect(s).toMatchObject({ status: 'pending', lastError: expect.any(String) });
      expect(s['receipt']).toBeUndefined();
    }
  }
}
