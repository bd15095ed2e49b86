import { Client } from 'pg';
import type { Logger } from '../logging/logger';

/** The PostgreSQL channel every instance listens on; payloads are `<topic>:<key>`. */
export const CACHE_CHANNEL = 'credgate_cache';

/** A change to a cached record: `key` of `topic`, or every record of every topic (`key` '*'). */
export type Invalidation = (topic: string, key: string) => void;

/**
 * How cached records learn that another instance changed them. A writer sends
 * `pg_notify(CACHE_CHANNEL, '<topic>:<key>')` inside the transaction of the change, so the
 * notice goes out exactly when the change commits; every instance (the writer too) drops its
 * copy when the notice arrives. While an instance cannot listen (connection lost, not yet
 * connected), `live` is false and the caches neither serve nor store (they read through).
 */
export interface InvalidationBus {
  readonly live: boolean;
  subscribe(fn: Invalidation): void;
  /**
   * Resolves once every notice committed before the call has been handled here: PostgreSQL
   * delivers the notices of different transactions in commit order, so a notice of our own,
   * sent now, arrives after all of them. Used where a read must see another instance's change.
   */
  barrier(): Promise<void>;
  close(): Promise<void>;
}

export function parseInvalidation(payload: string): [topic: string, key: string] | null {
  const at = payload.indexOf(':');
  return at > 0 ? [payload.slice(0, at), payload.slice(at + 1)] : null;
}

/**
 * One process owns the database (embedded PGlite: the data folder is locked to one process), so
 * the writer's own local invalidation is all there is to tell: always live.
 */
export class LocalInvalidationBus implements InvalidationBus {
  readonly live = true;
  subscribe(): void {}
  async barrier(): Promise<void> {}
  async close(): Promise<void> {}
}

/** application_name of the listening connection (visible in pg_stat_activity). */
export const LISTENER_NAME = 'credgate-cache-listener';
const RECONNECT_MS = 1_000;
/**
 * A listener whose connection died without a word (a dropped route, no FIN) would miss notices
 * and keep serving what they announced: it is probed this often, and a probe that does not come
 * back within PROBE_TIMEOUT_MS counts as a lost connection.
 */
const PROBE_EVERY_MS = 15_000;
const PROBE_TIMEOUT_MS = 5_000;

/** LISTEN on a dedicated connection (a pooled one may be handed to another query at any time). */
export class PgInvalidationBus implements InvalidationBus {
  private client: Client | undefined;
  private connected = false;
  private closed = false;
  private readonly handlers: Invalidation[] = [];
  private readonly barriers = new Map<string, () => void>();
  private nextBarrier = 0;
  private retry: NodeJS.Timeout | undefined;
  private probe: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly logger?: Logger,
  ) {}

  get live(): boolean {
    return this.connected;
  }

  /** Connects and listens; resolves even when PostgreSQL is unreachable (it retries; caches read through meanwhile). */
  async start(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.url, keepAlive: true, application_name: LISTENER_NAME });
    this.client = client;
    client.on('notification', (msg) => this.onNotice(msg.payload ?? ''));
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
      // Whatever changed while nobody listened is unknown: start from empty caches.
      this.emit('*', '*');
      this.connected = true;
      this.probe = setInterval(() => this.check(client), PROBE_EVERY_MS);
      this.probe.unref();
    } catch (e) {
      this.logger?.warn({ err: (e as Error).message }, 'cache invalidation listener could not connect; caches read through until it does');
      this.lost(client);
    }
  }

  subscribe(fn: Invalidation): void {
    this.handlers.push(fn);
  }

  async barrier(): Promise<void> {
    const client = this.client;
    if (!this.connected || !client) return;
    const token = `barrier:${process.pid}-${this.nextBarrier++}`;
    const seen = new Promise<void>((resolve) => this.barriers.set(token, resolve));
    await client.query('SELECT pg_notify($1, $2)', [CACHE_CHANNEL, token]);
    await seen;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connected = false;
    clearTimeout(this.retry);
    clearInterval(this.probe);
    for (const resolve of this.barriers.values()) resolve();
    this.barriers.clear();
    await this.client?.end().catch(() => undefined);
  }

  private check(client: Client): void {
    const timer = setTimeout(() => this.lost(client), PROBE_TIMEOUT_MS);
    timer.unref();
    client.query('SELECT 1').then(
      () => clearTimeout(timer),
      () => {
        clearTimeout(timer);
        this.lost(client);
      },
    );
  }

  private onNotice(payload: string): void {
    const done = this.barriers.get(payload);
    if (done) {
      this.barriers.delete(payload);
      done();
      return;
    }
    const parsed = parseInvalidation(payload);
    if (parsed) this.emit(...parsed);
  }

  private emit(topic: string, key: string): void {
    for (const fn of this.handlers) fn(topic, key);
  }

  /** The listener is gone: drop everything (notices may be missed from now on) and reconnect. */
  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.connected = false;
    clearInterval(this.probe);
    this.emit('*', '*');
    for (const resolve of this.barriers.values()) resolve();
    this.barriers.clear();
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.retry = setTimeout(() => void this.start(), RECONNECT_MS);
    this.retry.unref();
  }
}
