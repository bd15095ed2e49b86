import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The tenant a request runs for, carried implicitly to shared resources deep below the services
 * (the face worker queue) so their fairness needs no tenant parameter threaded through every
 * use case. Set once by the transports right after authentication.
 */
const storage = new AsyncLocalStorage<string>();

export function runAsTenant<T>(tenantId: string, fn: () => T): T {
  return storage.run(tenantId, fn);
}

/** The current request's tenant; work started outside any request (CLI, warmup) shares one queue. */
export function currentTenant(): string {
  return storage.getStore() ?? 'unattributed';
}
