import type { ReadLevel, ReadRouter } from '../db/read-replica';

type Method = (...args: unknown[]) => Promise<unknown>;

/**
 * A view of `service` whose named methods run as read-only operations (ReadRouter.run): their
 * reads may be served by the read replica at the given freshness. Only the instances handed to
 * the transports are wrapped; services calling each other inside a write keep the plain ones, so
 * a write never reads from the replica. Without a replica the service itself is returned.
 */
export function readOperations<T extends object>(service: T, methods: readonly (keyof T & string)[], router: ReadRouter | undefined, level: ReadLevel): T {
  if (!router) return service;
  const view = Object.create(service) as T;
  for (const name of methods) {
    const original = service[name] as unknown as Method;
    (view as Record<string, unknown>)[name] = (...args: unknown[]) => router.run(level, () => original.apply(service, args));
  }
  return view;
}
