import { CREDENTIALS_V1_CONTEXT, CREDENTIALS_V2_CONTEXT, isJsonObject, type VcVersion } from './values';

/**
 * The data model version a credential or presentation declares by its first @context entry.
 * Any other first entry (or none) is no version at all: the shape checks report it.
 */
export function credentialVersion(vc: unknown): VcVersion | undefined {
  if (!isJsonObject(vc)) return undefined;
  const context = vc['@context'];
  const first = Array.isArray(context) ? context[0] : context;
  if (first === CREDENTIALS_V1_CONTEXT) return '1.1';
  if (first === CREDENTIALS_V2_CONTEXT) return '2.0';
  return undefined;
}
