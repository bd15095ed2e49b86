/** One credential configuration as the operator page lists it (contracts/wallet-console.ts). */
export interface OfferableConfiguration {
  readonly id: string;
  readonly format: string;
  readonly name: string;
  readonly vct: string | null;
  readonly doctype: string | null;
  readonly claims: string[][];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The configurations of OpenID4VCI issuer metadata as a list the page can show: its name, and the
 * vct / doctype and claim paths a DCQL query asking for it names. Read from the metadata the issuer
 * publishes (not re-derived), so the page offers exactly what a wallet will be told exists.
 */
export function offerableConfigurations(metadata: Record<string, unknown>): OfferableConfiguration[] {
  const supported = metadata['credential_configurations_supported'];
  if (!isRecord(supported)) return [];
  return Object.entries(supported).flatMap(([id, c]) => {
    if (!isRecord(c) || typeof c['format'] !== 'string') return [];
    const display = isRecord(c['credential_metadata']) ? c['credential_metadata'] : {};
    const first = Array.isArray(display['display']) && isRecord(display['display'][0]) ? display['display'][0] : {};
    const claims = (Array.isArray(display['claims']) ? display['claims'] : [])
      .map((cl) => (isRecord(cl) && Array.isArray(cl['path']) ? cl['path'].filter((p): p is string => typeof p === 'string') : []))
      .filter((p) => p.length > 0);
    return [{
      id,
      format: c['format'],
      name: typeof first['name'] === 'string' ? first['name'] : id,
      vct: typeof c['vct'] === 'string' ? c['vct'] : null,
      doctype: typeof c['doctype'] === 'string' ? c['doctype'] : null,
      claims,
    }];
  });
}
