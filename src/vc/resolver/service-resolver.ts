import type { DidDocument } from '../../domain/dids/did-document.types';
import type { MethodResolver, ServiceDidLookup } from './types';

/** What the adapter needs of DidsService: its resolution from the records, with its AppErrors. */
export interface ServiceDidRecords {
  resolveDocument(did: string): Promise<DidDocument>;
}

/**
 * The composition root's adapter: the service's own DID method resolved by DidsService (records,
 * deactivation, the three spellings of a service DID), so src/vc never reads the database itself.
 */
export function serviceDidLookup(records: ServiceDidRecords, method: string): ServiceDidLookup {
  return { method, resolve: (did) => records.resolveDocument(did) };
}

export function serviceMethodResolver(lookup: ServiceDidLookup): MethodResolver {
  // Not cached here: DidsService has its own record cache, and a deactivation must show at once.
  return { method: lookup.method, name: 'service', remote: false, resolve: (did) => lookup.resolve(did) };
}
