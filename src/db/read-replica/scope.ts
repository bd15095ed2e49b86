import { AsyncLocalStorage } from 'node:async_hooks';
import type { Lsn } from './lsn';

/**
 * How fresh a read-only operation's reads must be (see docs/OPERATIONS.md, "Read replica"):
 * - `fenced`: at least as fresh as the primary when the operation started. Every commit that was
 *   acknowledged before it (a revocation above all) is visible. Verification and status lists.
 * - `session`: at least as fresh as the client's own last write (its `Credgate-LSN`), else
 *   within the replica lag bound. DID documents and resolution, templates, schemas.
 */
export type ReadLevel = 'fenced' | 'session';

/** One HTTP request: the position the client asked to read at least, and whether it ran as a replica read. */
export interface RequestReadState {
  readonly clientLsn: Lsn | undefined;
  /** Set by a read-only operation: its response carries no Credgate-LSN (it wrote nothing). */
  readOnly: boolean;
}

/** One read-only operation: where its reads go, decided once on its first read and then kept. */
export interface ReadScope {
  readonly level: ReadLevel;
  readonly clientLsn: Lsn | undefined;
  /** The source of this operation's reads; pending while the replica catches up. */
  source?: Promise<'replica' | 'primary'>;
  /** A replica read failed: the rest of the operation reads from the primary. */
  pinnedToPrimary?: boolean;
}

/** `primary`: reads made here must not come from a replica (record caches fill from here). */
type Frame = { readonly kind: 'request'; readonly request: RequestReadState } | { readonly kind: 'read'; readonly scope: ReadScope; readonly request: RequestReadState | undefined } | { readonly kind: 'primary' };

const storage = new AsyncLocalStorage<Frame>();

export function currentRequest(): RequestReadState | undefined {
  const f = storage.getStore();
  return f?.kind === 'request' || f?.kind === 'read' ? f.request : undefined;
}

/** The read-only operation in progress, if any (undefined inside `onPrimary`). */
export function currentReadScope(): ReadScope | undefined {
  const f = storage.getStore();
  return f?.kind === 'read' ? f.scope : undefined;
}

export function withRequest<T>(request: RequestReadState, fn: () => T): T {
  return storage.run({ kind: 'request', request }, fn);
}

export function withReadScope<T>(scope: ReadScope, request: RequestReadState | undefined, fn: () => T): T {
  return storage.run({ kind: 'read', scope, request }, fn);
}

/**
 * Runs `fn` with every read on the primary. The record caches load through it: an entry filled
 * from a lagging replica after an invalidation would outlive the change the notice announced.
 */
export function onPrimary<T>(fn: () => T): T {
  return storage.getStore() === undefined ? fn() : storage.run({ kind: 'primary' }, fn);
}
