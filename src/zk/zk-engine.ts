import { AppError, RetryLaterError, isRetryLater } from '../errors';
import { FairScheduler } from '../biometrics/fair-scheduler';
import type { ZkMessage, ZkPseudonym, ZkRange } from './core-source';
import { ZkJobFailure, ZkWorkerPool } from './zk-pool';
import type { ZkOp } from './zk-worker';

export const ZK_PACKAGE = '@docknetwork/crypto-wasm-ts';

export interface ZkEngineOptions {
  /** Worker threads (each loads its own WASM instance on first use). */
  readonly workers: number;
  /** Longest a prove or verify may run once a worker took it; then 503 + Retry-After. */
  readonly deadlineMs: number;
  /** Jobs admitted at once across tenants (running + waiting). */
  readonly capacity: number;
  readonly retryAfterSeconds: number;
  /**
   * Where the optional package is: its absolute entry path, or null when it is not installed. The
   * seam tests use to simulate an install without it; by default resolved once, on first use.
   */
  readonly resolveLibrary?: () => string | null;
}

export const DEFAULT_ZK_ENGINE: Omit<ZkEngineOptions, 'resolveLibrary'> = Object.freeze({ workers: 2, deadlineMs: 30_000, capacity: 64, retryAfterSeconds: 2 });

/** The default resolution: the installed optional dependency, or null. */
export function resolveInstalledLibrary(): string | null {
  try {
    return require.resolve(ZK_PACKAGE);
  } catch {
    return null;
  }
}

export const featureOff = (): AppError =>
  new AppError('FEATURE_OFF', `zero-knowledge range proofs are not available on this installation (the optional package ${ZK_PACKAGE} is not installed)`);

/**
 * Zero-knowledge operations off the event loop. Nothing heavy happens at construction: the package
 * is resolved, and workers (each loading the WASM) are started, only on the first ZK request, so an
 * installation that never uses the feature never loads it. Jobs are admitted per tenant by the
 * same fair scheduler as face jobs (round-robin between tenants, the largest holder shed first when
 * full), and each runs under a deadline.
 */
export class ZkEngine {
  private pool: ZkWorkerPool | undefined;
  private library: string | null | undefined;
  private readonly scheduler: FairScheduler;
  private closed = false;

  constructor(private readonly options: ZkEngineOptions) {
    this.scheduler = new FairScheduler({ concurrency: options.workers, capacity: options.capacity, retryAfterSeconds: options.retryAfterSeconds });
  }

  /** Whether the optional package is present (resolves it, loads nothing). */
  available(): boolean {
    if (this.library === undefined) this.library = (this.options.resolveLibrary ?? resolveInstalledLibrary)();
    return this.library !== null;
  }

  /** Workers started so far (tests check that the WASM loads only on first use). */
  get workersStarted(): number {
    return this.pool?.stats.workersStarted ?? 0;
  }

  publicKey(tenant: string, secretSeed: Uint8Array): Promise<Uint8Array> {
    return this.run(tenant, 'publicKey', { secretSeed }) as Promise<Uint8Array>;
  }

  sign(tenant: string, secretSeed: Uint8Array, messages: readonly ZkMessage[]): Promise<Uint8Array> {
    return this.run(tenant, 'sign', { secretSeed, messages }) as Promise<Uint8Array>;
  }

  /** The per-verifier pseudonym of a credential's message 0 under `scope`. */
  pseudonym(tenant: string, scope: Uint8Array, messages: readonly ZkMessage[]): Promise<Uint8Array> {
    return this.run(tenant, 'pseudonym', { scope, messages }) as Promise<Uint8Array>;
  }

  prove(tenant: string, input: { signature: Uint8Array; publicKey: Uint8Array; messages: readonly ZkMessage[]; ranges: readonly ZkRange[]; context: Uint8Array; nonce: Uint8Array; pseudonym?: ZkPseudonym }): Promise<Uint8Array> {
    return this.run(tenant, 'prove', input) as Promise<Uint8Array>;
  }

  verify(tenant: string, input: { proof: Uint8Array; publicKey: Uint8Array; messageCount: number; ranges: readonly ZkRange[]; context: Uint8Array; nonce: Uint8Array; pseudonym?: ZkPseudonym }): Promise<boolean> {
    return this.run(tenant, 'verify', input) as Promise<boolean>;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.scheduler.drain(new AppError('SERVICE_UNAVAILABLE', 'zero-knowledge engine closed'));
    await this.pool?.close();
  }

  private async run(tenant: string, op: ZkOp, input: unknown): Promise<unknown> {
    if (this.closed) throw new AppError('SERVICE_UNAVAILABLE', 'zero-knowledge engine closed');
    if (!this.available()) throw featureOff();
    const pool = (this.pool ??= new ZkWorkerPool({ size: this.options.workers, workerData: { library: this.library as string }, retryAfterSeconds: this.options.retryAfterSeconds }));
    try {
      const value = await this.scheduler.submit(tenant, () => pool.run(op, input, this.options.deadlineMs));
      // Structured clone hands back Uint8Arrays as they were; anything else is the boolean of verify.
      return value;
    } catch (e) {
      if (isRetryLater(e) && e.message.startsWith('face engine busy')) {
        throw new RetryLaterError('SERVICE_UNAVAILABLE', 'zero-knowledge workers are busy; retry later', this.options.retryAfterSeconds);
      }
      if (e instanceof ZkJobFailure && e.code === 'PREDICATE_FALSE') {
        throw new AppError('PREDICATE_NOT_MET', 'the credential does not satisfy the condition: a zero-knowledge proof of a false statement cannot be made');
      }
      if (e instanceof ZkJobFailure && e.code === 'SIGNATURE_INVALID') throw new AppError('VERIFICATION_FAILED', "the issuer's BBS signature does not verify over these attributes");
      throw e;
    }
  }
}
