import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { type CredgateApp, createApp } from '../../src/app';
import { type Config, DEFAULT_HTTP_LIMITS } from '../../src/config';
import { DEFAULT_JSONLD_BUDGET } from '../../src/domain/contexts';
import { DB_TIMEOUT_DEFAULTS, FAIRNESS_DEFAULTS } from '../../src/config/limits';
import type { Clock } from '../../src/domain/ports';
import { DEFAULT_GRAPHQL_LIMITS } from '../../src/graphql/limits/limits';
import { createLogger } from '../../src/logging/logger';
import { createCredgateClient, type CredgateClient } from '../../src/sdk';
import { type TestDatabase, createTestDatabase } from './test-db';

/** Log lines the service wrote, kept so tests can prove no secret was ever logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== ''));
    cb();
  }
  text(): string {
    return this.lines.join('\n');
  }
}

export interface TestServer {
  readonly baseUrl: string;
  readonly app: CredgateApp;
  readonly config: Config;
  readonly db: TestDatabase;
  readonly logs: LogCapture;
  /** The admin key of the default tenant, from CREDGATE_ADMIN_API_KEY. */
  readonly adminKey: string;
  /** Creates an API key through the same service the CLI uses. */
  apiKey(tenant: string, scopes: string[]): Promise<string>;
  sdk(apiKey?: string): CredgateClient;
  /** Stops the HTTP server and the app; the database stays (see `stop`). */
  close(): Promise<void>;
  /** close() and drop the database. */
  stop(): Promise<void>;
}

/** What the transports need of a server: its URL and an SDK client (in-process or a child process). */
export type Endpoint = Pick<TestServer, 'baseUrl' | 'sdk'>;

/** An Endpoint for a service reached only over HTTP (e.g. `node dist/main.js` in a child process). */
export function endpointAt(baseUrl: string): Endpoint {
  return { baseUrl, sdk: (apiKey) => createCredgateClient({ url: `${baseUrl}/graphql`, ...(apiKey ? { apiKey } : {}) }) };
}

export interface StartOptions {
  readonly db?: TestDatabase;
  readonly clock?: Clock;
  readonly masterKey?: Buffer;
  readonly env?: Partial<Config>;
  /** The loopback port to listen on (0: any free one). A fixed port lets a public URL name the server itself. */
  readonly port?: number;
}

export function testConfig(db: TestDatabase, overrides: Partial<Config> = {}, masterKey?: Buffer): Config {
  return Object.freeze({
    port: 0,
    host: '127.0.0.1',
    publicUrl: 'http://credgate.test',
    database: db.config,
    dataDir: db.dataDir,
    masterKey: masterKey ?? (db.config.kind === 'postgres' ? randomBytes(32) : undefined),
    adminApiKey: `admin-${randomBytes(16).toString('hex')}`,
    didMethod: 'credgate',
    network: 'local',
    logLevel: 'info' as const,
    bodyLimitBytes: 64 * 1024,
    jsonMaxDepth: 64,
    graphql: DEFAULT_GRAPHQL_LIMITS,
    graphqlUi: { playground: true, introspection: true },
    apiDocs: true,
    http: DEFAULT_HTTP_LIMITS,
    faces: { threshold: 0.6, maxImageBytes: 8 * 1024 * 1024, workers: 1 },
    // A generous deadline: the test machine is shared, and the budget tests set their own.
    canon: { workers: 1, deadlineMs: 10_000, queueLimit: 256, maxObjects: DEFAULT_JSONLD_BUDGET.maxObjects, maxValues: DEFAULT_JSONLD_BUDGET.maxValues },
    // Suites that are not about rate limits verify one credential many times: generous budgets
    // (still counted in the database) keep them independent; the limits suites set their own.
    rateLimits: { windowSeconds: 60, perApiKey: 1_000_000, perCredential: 1_000_000, perIp: 1_000_000 },
    fairness: FAIRNESS_DEFAULTS,
    dbTimeouts: DB_TIMEOUT_DEFAULTS,
    batch: { windowMs: 2, max: 128 },
    ...overrides,
  });
}

/** Starts a real Credgate (real database, real HTTP on a loopback port). */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const db = options.db ?? (await createTestDatabase());
  const config = testConfig(db, options.env, options.masterKey);
  const logs = new LogCapture();
  const app = await createApp({ config, logger: createLogger('info', logs), ...(options.clock ? { clock: options.clock } : {}) });
  const server: Server = await new Promise((resolve) => {
    const s = app.http.listen(options.port ?? 0, '127.0.0.1', () => resolve(s));
  });
  // The server shares this process's event loop with the test: a test that computes for seconds
  // (a local ZK proof) blocks both, and when it returns, the server's keep-alive timeout (Node's
  // 5 s) and the test's next request on that idle socket race: ECONNRESET (see
  // test/support/process.ts, the same race with a blocking CLI run). Idle sockets of an
  // in-process server stay open longer than any such pause.
  server.keepAliveTimeout = 120_000;
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
  };
  return {
    baseUrl,
    app,
    config,
    db,
    logs,
    adminKey: config.adminApiKey!,
    async apiKey(tenant, scopes) {
      return (await app.services.auth.createApiKey({ tenant, scopes })).key;
    },
    sdk: endpointAt(baseUrl).sdk,
    close,
    async stop() {
      await close();
      await db.drop();
    },
  };
}

/**
 * The usual suite set-up in one call: a server started before the file's tests and stopped (its
 * database dropped) after them. The returned object stands for that server once `beforeAll` ran.
 * Options are read when the server starts, so they may name values set up earlier in the file.
 */
export function useTestServer(options: () => StartOptions = () => ({})): TestServer {
  let current: TestServer | undefined;
  beforeAll(async () => {
    current = await startTestServer(options());
  });
  afterAll(async () => {
    await current?.stop();
  });
  return new Proxy({} as TestServer, {
    get(_target, key) {
      if (!current) throw new Error('useTestServer: the server starts in beforeAll');
      return Reflect.get(current, key, current) as unknown;
    },
  });
}
