import type { PrismaClient } from '../../generated/prisma/client';
import type { SqlExecutor } from '../sql-executor';
import type { ReadRouter } from './read-router';
import { currentReadScope } from './scope';

/** Model methods that only read. Everything else (writes, transactions, $executeRaw) is the primary's. */
const READS = new Set(['findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'findMany', 'count', 'aggregate', 'groupBy']);
/** Reads whose null may only mean the replica has not replayed the row yet (see ReadRouter.read). */
const MAY_MISS = new Set(['findUnique', 'findFirst']);
/** Raw queries: routed only when they are plain SELECTs (see `isPlainSelect`); the rest is the primary's. */
const RAW_QUERIES = new Set(['$queryRaw', '$queryRawUnsafe']);

/**
 * A statement that only reads: it starts with SELECT and takes no row locks. Anything else
 * (INSERT ... RETURNING, a CTE that writes, SELECT ... FOR UPDATE) runs on the primary. A SELECT
 * that still writes (nextval, pg_notify) fails on the read-only standby and is run again on the
 * primary (ReadRouter.read).
 */
export function isPlainSelect(text: string): boolean {
  return /^\s*SELECT\b/i.test(text) && !/\bFOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE|KEY\s+SHARE)\b/i.test(text);
}

/** The SQL text of a $queryRaw call (tagged template, Prisma.sql object) or a $queryRawUnsafe call. */
function rawText(args: readonly unknown[]): string {
  const first = args[0];
  if (typeof first === 'string') return first;
  if (Array.isArray(first)) return first.join('?');
  const sql = (first as { sql?: unknown; strings?: unknown } | null)?.sql;
  return typeof sql === 'string' ? sql : '';
}

type Fn = (...args: unknown[]) => Promise<unknown>;

/**
 * A PrismaClient for every repository that serve both sides: outside a read-only operation (see
 * ReadRouter.run) it IS the primary client (calls pass straight through, PrismaPromises and
 * all); inside one, model reads and raw queries go where the router decides, with the primary
 * answering whatever the replica could not. Writes and transactions always go to the primary.
 */
export function routingClient(primary: PrismaClient, replica: PrismaClient, router: ReadRouter): PrismaClient {
  const delegates = new Map<string, unknown>();
  const routedDelegate = (model: string, onPrimary: object): unknown =>
    new Proxy(onPrimary, {
      get(target, method) {
        const value = Reflect.get(target, method, target) as unknown;
        if (typeof value !== 'function') return value;
        if (typeof method !== 'string' || !READS.has(method)) return (value as Fn).bind(target);
        return (...args: unknown[]) => {
          if (!currentReadScope()) return (value as Fn).apply(target, args);
          const onReplica = Reflect.get(replica, model) as Record<string, Fn>;
          return router.read((source) => (source === 'replica' ? onReplica[method]!(...args) : (value as Fn).apply(target, args)), !MAY_MISS.has(method));
        };
      },
    });
  return new Proxy(primary, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof prop !== 'string') return value;
      if (RAW_QUERIES.has(prop)) {
        return (...args: unknown[]) => {
          if (!currentReadScope() || !isPlainSelect(rawText(args))) return (value as Fn).apply(target, args);
          const onReplica = Reflect.get(replica, prop) as Fn;
          return router.read((source) => (source === 'replica' ? onReplica.apply(replica, args) : (value as Fn).apply(target, args)), true);
        };
      }
      if (typeof value === 'function') return (value as Fn).bind(target);
      if (prop.startsWith('$') || prop.startsWith('_') || value === null || typeof value !== 'object' || typeof (value as { findMany?: unknown }).findMany !== 'function') return value;
      let d = delegates.get(prop);
      if (d === undefined) delegates.set(prop, (d = routedDelegate(prop, value)));
      return d;
    },
  });
}

/**
 * The same for raw SQL (the typed statements of the hot paths): inside a read-only operation a
 * plain SELECT goes where the router decides; scripts, transactions and every other statement
 * run on the primary.
 */
export function routingSql(primary: SqlExecutor, replica: SqlExecutor, router: ReadRouter): SqlExecutor {
  type Query = (...args: unknown[]) => Promise<unknown[]>;
  return {
    exec: (sql) => primary.exec(sql),
    transaction: (fn) => primary.transaction(fn),
    query: (<T>(...args: unknown[]): Promise<T[]> => {
      const onPrimary = (): Promise<T[]> => (primary.query as Query).apply(primary, args) as Promise<T[]>;
      if (!currentReadScope() || !isPlainSelect(String(args[0]))) return onPrimary();
      return router.read((source) => (source === 'replica' ? ((replica.query as Query).apply(replica, args) as Promise<T[]>) : onPrimary()), true);
    }) as SqlExecutor['query'],
  };
}
