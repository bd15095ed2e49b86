import http from 'node:http';
import type { TestServer } from '../support/harness';
import { useTestServer } from '../support/harness';

/**
 * Issue 17, attack 4: the OAuth lockout by address. Failed client authentications at
 * POST /oauth/token used to be counted per address only, and after the secret was checked:
 * 21 bad requests from one address locked every client at that address out (behind a reverse
 * proxy: everyone), and a concurrent burst had every one of its guesses checked before the
 * first failure was counted. Now the budget is per (address, client id), the attempt is
 * reserved before the secret is looked at, and the address is the socket peer unless the peer is
 * a proxy the operator trusts (CREDGATE_TRUST_PROXY).
 */
const BUDGET = 20;
/**
 * The counters' windows are fixed (aligned to multiples of their length on the database clock):
 * a burst that straddles a window's end starts again from zero, and would not be locked out at
 * the 21st request. Long windows, and no test starts in the last seconds of one.
 */
const WINDOW_SECONDS = 3600;
beforeEach(async () => {
  const untilEnd = WINDOW_SECONDS - ((Date.now() / 1000) % WINDOW_SECONDS);
  if (untilEnd < 30) await new Promise((r) => setTimeout(r, (untilEnd + 1) * 1000));
}, 60_000);

/** The default configuration: trust proxy off. */
const direct = useTestServer(() => ({ env: { rateLimits: { windowSeconds: WINDOW_SECONDS, perApiKey: 1_000_000, perCredential: 1_000_000, perIp: 1_000_000, oauthFailuresPerIp: BUDGET } } }));
/** Behind a proxy at 127.0.0.1: a request from 127.0.0.1 comes through the trusted hop, one from 127.0.0.2 does not. */
const proxied = useTestServer(() => ({
  env: {
    rateLimits: { windowSeconds: WINDOW_SECONDS, perApiKey: 1_000_000, perCredential: 1_000_000, perIp: 1_000_000, oauthFailuresPerIp: BUDGET },
    trustProxy: { kind: 'addresses', addresses: ['127.0.0.1'] },
  },
}));

const TRUSTED_HOP = '127.0.0.1';
const UNTRUSTED_HOP = '127.0.0.2';

const idOf = (key: string): string => {
  const h = /^cgk_([0-9a-f]{32})_/.exec(key)![1]!;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
/** The key with its secret part changed: the right client id and key format, the wrong secret. */
const wrongSecretOf = (key: string, n = 0): string => `${key.slice(0, -6)}${String(n).padStart(6, '0').replace(/\d/g, (d) => 'ABCDEFGHIJ'[Number(d)]!)}`;

interface Answer {
  readonly status: number;
  readonly error: string | undefined;
}

/**
 * POST /oauth/token over its own connection from `localAddress` (a loopback address of this
 * host), so the service sees that address as the socket peer.
 */
function token(server: TestServer, key: string, secret: string, opts: { from?: string; forwardedFor?: string; clientId?: string } = {}): Promise<Answer> {
  const url = new URL(`${server.baseUrl}/oauth/token`);
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: opts.clientId ?? idOf(key), client_secret: secret }).toString();
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) };
  if (opts.forwardedFor !== undefined) headers['x-forwarded-for'] = opts.forwardedFor;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, agent: false, localAddress: opts.from ?? TRUSTED_HOP }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let error: string | undefined;
        try {
          error = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: string }).error;
        } catch {
          error = undefined;
        }
        resolve({ status: res.statusCode ?? 0, error });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `n` failed authentications of `key`'s client, one after the other. */
async function fail(server: TestServer, key: string, n: number, opts: (i: number) => { from?: string; forwardedFor?: string } = () => ({})): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await token(server, key, wrongSecretOf(key, i), opts(i))).status);
  return statuses;
}

describe('one address, two clients', () => {
  test('21+ bad requests for client X lock X out (right secret included) but not client Y at the same address', async () => {
    const x = await direct.apiKey('lockout-shared', ['issuer']);
    const y = await direct.apiKey('lockout-shared', ['verifier']);
    const statuses = await fail(direct, x, BUDGET + 5);
    expect(statuses.slice(0, BUDGET)).toEqual(Array(BUDGET).fill(401));
    expect(statuses.slice(BUDGET)).toEqual(Array(5).fill(429));
    // X is locked out at this address, even with its right secret: the endpoint is no oracle.
    expect(await token(direct, x, x)).toEqual({ status: 429, error: 'temporarily_unavailable' });
    // Y, at the same address, is not: it gets its token, and its own failures are still 401.
    expect(await token(direct, y, y)).toEqual({ status: 200, error: undefined });
    expect(await token(direct, y, wrongSecretOf(y))).toEqual({ status: 401, error: 'invalid_client' });
  });

  test('a client id spelt in capitals is the same client: it does not get a second budget', async () => {
    const x = await direct.apiKey('lockout-case', ['issuer']);
    await fail(direct, x, BUDGET);
    const upper = await token(direct, x, x, { clientId: idOf(x).toUpperCase() });
    expect(upper.status).toBe(429);
  });

  test('successful authentications do not spend the budget', async () => {
    const x = await direct.apiKey('lockout-success', ['issuer']);
    for (let i = 0; i < BUDGET + 5; i++) expect((await token(direct, x, x)).status).toBe(200);
    // The whole budget of failures is still there.
    expect((await fail(direct, x, BUDGET + 1)).filter((s) => s === 401)).toHaveLength(BUDGET);
  });
});

describe('a concurrent burst', () => {
  test('50 concurrent bad requests for one client: exactly the budget is evaluated (401), the rest refused unchecked (429)', async () => {
    const x = await direct.apiKey('lockout-burst', ['issuer']);
    // Every wrong secret names X's id, so each one that is evaluated reaches the key lookup.
    const authenticate = jest.spyOn(direct.app.services.auth, 'authenticate');
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => token(direct, x, wrongSecretOf(x, i))));
      const prefix = x.slice(0, 37); // cgk_<id>_ : the calls for X's client
      const evaluated = authenticate.mock.calls.filter(([c]) => typeof c === 'object' && c.apiKey?.startsWith(prefix) === true).length;
      const count = (s: number) => answers.filter((a) => a.status === s).length;
      expect({ unauthorized: count(401), limited: count(429), other: answers.length - count(401) - count(429) }).toEqual({ unauthorized: BUDGET, limited: 50 - BUDGET, other: 0 });
      expect(evaluated).toBe(BUDGET);
    } finally {
      authenticate.mockRestore();
    }
    expect((await token(direct, x, x)).status).toBe(429);
  });
});

describe('trust proxy', () => {
  test('off (the default): X-Forwarded-For is ignored, so spoofing a new address per request does not dodge the lockout', async () => {
    const x = await direct.apiKey('lockout-spoof-off', ['issuer']);
    const statuses = await fail(direct, x, BUDGET + 1, (i) => ({ forwardedFor: `198.51.100.${i + 1}` }));
    expect(statuses.filter((s) => s === 401)).toHaveLength(BUDGET);
    expect(statuses[BUDGET]).toBe(429);
    expect((await token(direct, x, x, { forwardedFor: '198.51.100.200' })).status).toBe(429);
  });

  test('from the trusted hop, X-Forwarded-For names the client: one client\'s lockout does not reach the same client elsewhere', async () => {
    const x = await proxied.apiKey('lockout-proxied', ['issuer']);
    const statuses = await fail(proxied, x, BUDGET + 1, () => ({ from: TRUSTED_HOP, forwardedFor: '203.0.113.7' }));
    expect(statuses.slice(0, BUDGET)).toEqual(Array(BUDGET).fill(401));
    expect(statuses[BUDGET]).toBe(429);
    // The guessing address is locked out for X, right secret included ...
    expect((await token(proxied, x, x, { from: TRUSTED_HOP, forwardedFor: '203.0.113.7' })).status).toBe(429);
    // ... while X behind the same proxy at another address is not. The proxy appends the peer it
    // saw: a client-supplied entry to the left of it is not believed.
    expect((await token(proxied, x, x, { from: TRUSTED_HOP, forwardedFor: '203.0.113.8' })).status).toBe(200);
    expect((await token(proxied, x, x, { from: TRUSTED_HOP, forwardedFor: '203.0.113.7, 203.0.113.9' })).status).toBe(200);
    expect((await token(proxied, x, x, { from: TRUSTED_HOP, forwardedFor: '203.0.113.9, 203.0.113.7' })).status).toBe(429);
  });

  test('from an untrusted hop, X-Forwarded-For is ignored: a spoofed address per request does not dodge the lockout', async () => {
    const x = await proxied.apiKey('lockout-untrusted', ['issuer']);
    const statuses = await fail(proxied, x, BUDGET + 1, (i) => ({ from: UNTRUSTED_HOP, forwardedFor: `198.51.100.${i + 1}` }));
    expect(statuses.filter((s) => s === 401)).toHaveLength(BUDGET);
    expect(statuses[BUDGET]).toBe(429);
    expect((await token(proxied, x, x, { from: UNTRUSTED_HOP, forwardedFor: '198.51.100.250' })).status).toBe(429);
    // The lockout belongs to the untrusted peer's own address, not to the client it named.
    expect((await token(proxied, x, x, { from: TRUSTED_HOP, forwardedFor: '198.51.100.1' })).status).toBe(200);
  });
});
