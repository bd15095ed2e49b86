import type { Logger } from '../../logging/logger';
import type { Lsn } from './lsn';
import type { ReplicaMonitor, ReplicaState } from './replica-monitor';
import { type ReadLevel, type ReadScope, currentReadScope, currentRequest, withReadScope } from './scope';

export type ReadSource = 'replica' | 'primary';

/** Reads counted by where they were served (the bench and the tests read them). */
export interface ReadStats {
  replica: number;
  primary: number;
  /** Replica reads answered again by the primary: a failure, or a session read that found nothing. */
  fallbacks: number;
}

/** The error codes an error carries, from node-postgres (SQLSTATE) or Prisma (P2xxx, and its cause). */
function codesOf(e: unknown): string[] {
  const codes: string[] = [];
  for (let x: unknown = e, depth = 0; x !== null && typeof x === 'object' && depth < 4; depth++) {
    const o = x as { code?: unknown; originalCode?: unknown; meta?: { code?: unknown }; cause?: unknown };
    for (const c of [o.code, o.originalCode, o.meta?.code]) if (typeof c === 'string') codes.push(c);
    x = o.cause;
  }
  return codes;
}

/**
 * Whether a failed replica read says the replica itself is unusable (connection lost or refused,
 * shutting down, starting) rather than that this statement could not run there: a read-only
 * violation (25006: a statement that writes), a conflict with recovery (40001), a Prisma request
 * error (P2xxx). The former stops replica reads until the next check; the latter only sends
 * this operation to the primary.
 */
function replicaBroken(e: unknown): boolean {
  const codes = codesOf(e);
  if (codes.some((c) => /^P2\d{3}$/.test(c))) return false;
  const sqlstate = codes.find((c) => /^[0-9A-Z]{5}$/.test(c));
  return sqlstate === undefined || /^(08|57P|53)/.test(sqlstate);
}

/**
 * Decides, per read-only operation, whether its reads go to the replica or the primary, and runs
 * them there. An operation reads from the replica only when the replica is usable (answering,
 * lag within CREDGATE_READ_MAX_LAG_MS) and has replayed what the operation must see:
 * - fenced: the primary's position taken after the operation started (never older than any
 *   acknowledged revocation, issuance or update);
 * - session: the client's Credgate-LSN, when it sent one.
 * Waiting for that is bounded by CREDGATE_READ_WAIT_MS; after it, and after any replica failure,
 * the primary answers. The decision is made once per operation, so it never mixes sources.
 */
export class ReadRouter {
  readonly stats: ReadStats = { replica: 0, primary: 0, fallbacks: 0 };

  constructor(
    private readonly monitor: ReplicaMonitor,
    private readonly waitMs: number,
    private readonly logger: Logger,
  ) {}

  /** Runs a read-only operation; nested operations share the outermost one's decision. */
  run<T>(level: ReadLevel, fn: () => Promise<T>): Promise<T> {
    if (currentReadScope()) return fn();
    const request = currentRequest();
    if (request) request.readOnly = true;
    return withReadScope({ level, clientLsn: request?.clientLsn }, request, fn);
  }

  /**
   * One read: on the replica when the current operation may read there, else on the primary.
   * `missIsFinal` false: a null from the replica (a record it has not replayed yet) is asked of
   * the primary again.
   */
  async read<T>(op: (source: ReadSource) => Promise<T>, missIsFinal: boolean): Promise<T> {
    const scope = currentReadScope();
    if (!scope) return op('primary');
    const source = scope.pinnedToPrimary ? 'primary' : await (scope.source ??= this.decide(scope));
    if (source === 'primary') {
      this.stats.primary++;
      return op('primary');
    }
    let out: T;
    try {
      out = await op('replica');
    } catch (e) {
      scope.pinnedToPrimary = true;
      this.stats.fallbacks++;
      if (replicaBroken(e)) {
        this.monitor.markDown();
        this.logger.warn({ err: e instanceof Error ? e.name : 'error' }, 'read replica failed; reading from the primary');
      }
      return op('primary');
    }
    this.stats.replica++;
    if (out === null && !missIsFinal && scope.level === 'session') {
      this.stats.fallbacks++;
      return op('primary');
    }
    return out;
  }

  /** The primary's position now: what a write's response carries in Credgate-LSN. */
  primaryLsn(): Promise<Lsn> {
    return this.monitor.freshPrimaryLsn();
  }

  state(): ReplicaState {
    return this.monitor.state();
  }

  private async decide(scope: ReadScope): Promise<ReadSource> {
    if (!this.monitor.usable()) return 'primary';
    let target = scope.clientLsn;
    if (scope.level === 'fenced') {
      let fence: Lsn;
      try {
        fence = await this.monitor.freshPrimaryLsn();
      } catch {
        return 'primary'; // the primary's own error is reported by the read itself
      }
      if (target === undefined || fence > target) target = fence;
    }
    if (target === undefined) return 'replica';
    return (await this.monitor.hasReplayed(target, this.waitMs)) ? 'replica' : 'primary';
  }
}
